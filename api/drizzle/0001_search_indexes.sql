DROP INDEX "companies_name_trgm_idx";--> statement-breakpoint
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
DROP INDEX "users_username_trgm_idx";--> statement-breakpoint
CREATE INDEX "companies_search_idx" ON "companies" USING gin (lower(coalesce("name", '') || E'\n' || coalesce("email", '') || E'\n' || coalesce("phone", '') || E'\n' || coalesce("website", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_name_sort_idx" ON "companies" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin (lower(coalesce("name", '') || E'\n' || coalesce("username", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (lower("name"),"id");