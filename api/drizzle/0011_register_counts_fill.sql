-- The register counts (0010) filled from the records of an existing database. Data only; the same
-- figures as rebuildRegisterCounts (api/src/services/register-counts.ts), which keeps them from then on.
INSERT INTO "scheme_counts" ("company_id", "status", "expired_date", "n")
SELECT "company_id", "status", "expired_date", count(*) FROM "schemes" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "scheme_issue_counts" ("company_id", "issue_date", "status", "n")
SELECT "company_id", "issue_date", "status", count(*) FROM "schemes" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "client_certified_until" ("certificate_id", "company_id", "until")
SELECT "certificate_id", "company_id", max("expired_date") FROM "schemes" WHERE "status" = 'ACTIVE' GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "certified_client_counts" ("company_id", "until", "n")
SELECT "company_id", "until", count(*) FROM "client_certified_until" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "training_person_counts" ("company_id", "person", "n")
SELECT "company_id", lower(trim("name")), count(*) FROM "training_certificates" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "training_person_totals" ("person", "n")
SELECT "person", sum("n") FROM "training_person_counts" GROUP BY 1;--> statement-breakpoint
INSERT INTO "training_counts" ("company_id", "certificates", "persons")
SELECT "company_id", sum("n"), count(*) FROM "training_person_counts" GROUP BY 1;--> statement-breakpoint
INSERT INTO "register_totals" ("name", "n")
SELECT 'training_persons', count(*) FROM "training_person_totals";
