CREATE TABLE "certified_client_counts" (
	"company_id" uuid NOT NULL,
	"until" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "certified_client_counts_company_id_until_pk" PRIMARY KEY("company_id","until")
);
--> statement-breakpoint
CREATE TABLE "client_certified_until" (
	"certificate_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"until" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "register_totals" (
	"name" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheme_counts" (
	"company_id" uuid NOT NULL,
	"status" text NOT NULL,
	"expired_date" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "scheme_counts_company_id_status_expired_date_pk" PRIMARY KEY("company_id","status","expired_date")
);
--> statement-breakpoint
CREATE TABLE "scheme_issue_counts" (
	"company_id" uuid NOT NULL,
	"issue_date" date NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "scheme_issue_counts_company_id_issue_date_status_pk" PRIMARY KEY("company_id","issue_date","status")
);
--> statement-breakpoint
CREATE TABLE "training_counts" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"certificates" integer NOT NULL,
	"persons" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_person_counts" (
	"company_id" uuid NOT NULL,
	"person" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "training_person_counts_company_id_person_pk" PRIMARY KEY("company_id","person")
);
--> statement-breakpoint
CREATE TABLE "training_person_totals" (
	"person" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certified_client_counts" ADD CONSTRAINT "certified_client_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_certified_until" ADD CONSTRAINT "client_certified_until_certificate_id_client_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."client_certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_counts" ADD CONSTRAINT "scheme_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_issue_counts" ADD CONSTRAINT "scheme_issue_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_counts" ADD CONSTRAINT "training_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_person_counts" ADD CONSTRAINT "training_person_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schemes_active_expiry_idx" ON "schemes" USING btree ("expired_date","id") WHERE "schemes"."status" = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "schemes_issue_id_idx" ON "schemes" USING btree ("issue_date","id");--> statement-breakpoint
CREATE INDEX "schemes_active_issue_idx" ON "schemes" USING btree ("issue_date","id") WHERE "schemes"."status" = 'ACTIVE';