-- The team rows' dates required and kept equal to their audit's by construction: the foreign key
-- (planned_audit_id, start_date, end_date) to the audits' (id, start_date, end_date), ON UPDATE
-- CASCADE, replaces the one on planned_audit_id alone (a team row with other dates is refused; an
-- audit whose dates change moves its team rows), and a GiST index (auditor_id, the dates) serves
-- 'Kalender Auditor' and the double-booking check (btree_gist, 0052).
ALTER TABLE "planned_audit_team" DROP CONSTRAINT "planned_audit_team_planned_audit_id_planned_audits_id_fk";
--> statement-breakpoint
ALTER TABLE "planned_audit_team" ALTER COLUMN "start_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "planned_audit_team" ALTER COLUMN "end_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "planned_audit_team" ADD CONSTRAINT "planned_audit_team_audit_dates_fk" FOREIGN KEY ("planned_audit_id","start_date","end_date") REFERENCES "public"."planned_audits"("id","start_date","end_date") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "planned_audit_team_auditor_dates_idx" ON "planned_audit_team" USING gist ("auditor_id",daterange("start_date", "end_date", '[]'));