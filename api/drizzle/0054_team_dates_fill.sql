-- Existing team rows take their audit's dates (0053 added the columns, 0055 requires them). Data only.
UPDATE "planned_audit_team" AS "t" SET "start_date" = "p"."start_date", "end_date" = "p"."end_date"
FROM "planned_audits" AS "p"
WHERE "p"."id" = "t"."planned_audit_id";
