-- Schemes' IAF sector codes (0050) filled from their client's 'Kode EA' where it reads as codes 1-39.
-- Data only. The same reading as parseSectorCodes (shared-contracts/src/sectors.ts): the words EA and
-- IAF (with an optional ':', '.' or '-') left out, the rest one- or two-digit numbers separated by
-- commas, semicolons, slashes, '&' or spaces, each from 1 to 39; anything else leaves the codes empty.
WITH "parsed" AS (
  SELECT "s"."id", btrim(regexp_replace("c"."ea_code", '(EA|IAF)\s*[:.-]?\s*', '', 'gi'), E' \t\r\n') AS "t"
  FROM "schemes" "s" JOIN "client_certificates" "c" ON "c"."id" = "s"."certificate_id"
  WHERE "c"."ea_code" IS NOT NULL
), "readable" AS (
  SELECT "id", "t" FROM "parsed"
  WHERE "t" ~ '^\d{1,2}(\s*[,;/&]\s*\d{1,2}|\s+\d{1,2})*$'
    AND NOT EXISTS (
      SELECT 1 FROM regexp_split_to_table("t", '[\s,;/&]+') AS "n"
      -- CASE: the cast only of digits, whatever order the conditions run in.
      WHERE CASE WHEN "n" ~ '^\d{1,2}$' THEN "n"::integer ELSE 0 END NOT BETWEEN 1 AND 39
    )
)
UPDATE "schemes" SET "sector_codes" = (
  SELECT array_agg(DISTINCT "v" ORDER BY "v")
  FROM (
    SELECT CASE WHEN "n" ~ '^\d{1,2}$' THEN "n"::integer END AS "v"
    FROM regexp_split_to_table("readable"."t", '[\s,;/&]+') AS "n"
  ) AS "codes"
)
FROM "readable"
WHERE "schemes"."id" = "readable"."id";
