CREATE INDEX "client_certificates_name_sort_idx" ON "client_certificates" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "client_certificates_number_sort_idx" ON "client_certificates" USING btree (lower("certificate_number"),"id");--> statement-breakpoint
CREATE INDEX "client_certificates_region_sort_idx" ON "client_certificates" USING btree (lower("region"),"id");