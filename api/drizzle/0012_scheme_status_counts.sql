CREATE TABLE "scheme_status_counts" (
	"company_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "scheme_status_counts_company_id_status_pk" PRIMARY KEY("company_id","status")
);
--> statement-breakpoint
ALTER TABLE "scheme_status_counts" ADD CONSTRAINT "scheme_status_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheme_counts_status_expiry_idx" ON "scheme_counts" USING btree ("status","expired_date");--> statement-breakpoint
-- Filled from the records of an existing database: the same figures as rebuildRegisterCounts
-- (api/src/services/register-counts.ts), which keeps them from then on.
INSERT INTO "scheme_status_counts" ("company_id", "status", "n")
SELECT "company_id", "status", count(*) FROM "schemes" GROUP BY 1, 2;
