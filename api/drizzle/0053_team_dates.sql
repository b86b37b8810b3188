-- Each team row gets its audit's dates (docs/rules.md#auditors-and-planned-audits), so that 'Kalender
-- Auditor' and the double-booking check read an auditor's team rows overlapping some days from an
-- index (0055) instead of every team row the auditor ever had. DDL only: the columns (empty here,
-- filled by 0054, required by 0055) and the unique key on the audits' (id, start_date, end_date)
-- that 0055's foreign key points to.
ALTER TABLE "planned_audit_team" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "planned_audit_team" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "planned_audits" ADD CONSTRAINT "planned_audits_id_dates_uq" UNIQUE("id","start_date","end_date");