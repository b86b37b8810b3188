CREATE TABLE "list_versions" (
	"entity" text NOT NULL,
	"company_id" uuid NOT NULL,
	"version" uuid NOT NULL,
	CONSTRAINT "list_versions_entity_company_id_pk" PRIMARY KEY("entity","company_id")
);
--> statement-breakpoint
ALTER TABLE "list_versions" ADD CONSTRAINT "list_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;