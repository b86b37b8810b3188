DROP INDEX "accredited_bodies_company_idx";--> statement-breakpoint
DROP INDEX "accredited_bodies_name_trgm_idx";--> statement-breakpoint
DROP INDEX "certification_types_name_trgm_idx";--> statement-breakpoint
DROP INDEX "client_certificates_name_trgm_idx";--> statement-breakpoint
DROP INDEX "client_certificates_number_trgm_idx";--> statement-breakpoint
DROP INDEX "training_certificates_name_trgm_idx";--> statement-breakpoint
DROP INDEX "training_certificates_number_trgm_idx";--> statement-breakpoint
CREATE INDEX "accredited_bodies_company_name_idx" ON "accredited_bodies" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "accredited_bodies_search_idx" ON "accredited_bodies" USING gin (lower(coalesce("name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "certification_types_search_idx" ON "certification_types" USING gin (lower(coalesce("name", '') || E'\n' || coalesce("code", '') || E'\n' || coalesce("category", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "client_certificates_company_name_idx" ON "client_certificates" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "client_certificates_search_idx" ON "client_certificates" USING gin (lower(coalesce("name", '') || E'\n' || coalesce("certificate_number", '') || E'\n' || coalesce("region", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "schemes_search_idx" ON "schemes" USING gin (lower(coalesce("cert_number", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "training_certificates_date_idx" ON "training_certificates" USING btree ("date");--> statement-breakpoint
CREATE INDEX "training_certificates_certification_idx" ON "training_certificates" USING btree ("certification_id");--> statement-breakpoint
CREATE INDEX "training_certificates_search_idx" ON "training_certificates" USING gin (lower(coalesce("name", '') || E'\n' || coalesce("certificate_number", '') || E'\n' || coalesce("training", '') || E'\n' || coalesce("location", '')) gin_trgm_ops);