-- The 'audit-schedule' permission (Jadwal Audit) for databases made before it existed, given to every
-- role that holds every permission, as the start-up seed does for a new key. Data only.
INSERT INTO "permissions" ("id", "name")
SELECT gen_random_uuid(), 'audit-schedule' WHERE EXISTS (SELECT 1 FROM "permissions")
ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT rp."role_id", p."id"
FROM "role_permissions" rp CROSS JOIN "permissions" p
WHERE p."name" = 'audit-schedule'
GROUP BY rp."role_id", p."id"
HAVING count(*) >= (SELECT count(*) FROM "permissions" WHERE "name" <> 'audit-schedule')
ON CONFLICT DO NOTHING;
