-- The certification cycle: a scheme's decision date, the audits done on it, and the stored due items
-- and their counts (derived, kept by api/src/services/cycle-due.ts; filled at start when missing).
CREATE TABLE "scheme_audits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"scheme_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"date" date NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheme_audits_kind_ck" CHECK ("scheme_audits"."kind" in ('SURVEILLANCE', 'RECERTIFICATION', 'SPECIAL'))
);
--> statement-breakpoint
CREATE TABLE "scheme_cycle_due" (
	"scheme_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"certification_id" uuid NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"due_date" date NOT NULL,
	"expired_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheme_cycle_due_counts" (
	"company_id" uuid NOT NULL,
	"due_date" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "scheme_cycle_due_counts_company_id_due_date_pk" PRIMARY KEY("company_id","due_date")
);
--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "decision_date" date;--> statement-breakpoint
ALTER TABLE "scheme_audits" ADD CONSTRAINT "scheme_audits_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_cycle_due" ADD CONSTRAINT "scheme_cycle_due_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_cycle_due_counts" ADD CONSTRAINT "scheme_cycle_due_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheme_audits_scheme_idx" ON "scheme_audits" USING btree ("scheme_id","date");--> statement-breakpoint
CREATE INDEX "scheme_cycle_due_due_idx" ON "scheme_cycle_due" USING btree ("due_date","scheme_id","status","expired_date");--> statement-breakpoint
CREATE INDEX "scheme_cycle_due_company_idx" ON "scheme_cycle_due" USING btree ("company_id","due_date","scheme_id","status","expired_date");--> statement-breakpoint
CREATE INDEX "scheme_cycle_due_counts_due_idx" ON "scheme_cycle_due_counts" USING btree ("due_date");