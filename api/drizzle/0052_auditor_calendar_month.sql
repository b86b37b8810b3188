-- 'Kalender Auditor': a company's audits that overlap a month (docs/rules.md#auditors-and-planned-audits).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE INDEX "planned_audits_company_dates_idx" ON "planned_audits" USING gist ("company_id",daterange("start_date", "end_date", '[]'));
