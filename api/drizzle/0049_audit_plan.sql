CREATE TABLE "audit_day_bands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"certification_id" uuid,
	"max_employees" integer NOT NULL,
	"days" double precision NOT NULL,
	CONSTRAINT "audit_day_bands_days_ck" CHECK ("audit_day_bands"."days" > 0 and "audit_day_bands"."days" * 2 = floor("audit_day_bands"."days" * 2))
);
--> statement-breakpoint
CREATE TABLE "auditor_conflicts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"auditor_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"until" date,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auditor_qualifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"auditor_id" uuid NOT NULL,
	"certification_id" uuid NOT NULL,
	"role" text NOT NULL,
	"sector_codes" integer[] NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"position" integer NOT NULL,
	CONSTRAINT "auditor_qualifications_role_ck" CHECK ("auditor_qualifications"."role" in ('LEAD_AUDITOR', 'AUDITOR', 'TECHNICAL_EXPERT'))
);
--> statement-breakpoint
CREATE TABLE "auditors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"employment" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auditors_employment_ck" CHECK ("auditors"."employment" in ('INTERNAL', 'EXTERNAL'))
);
--> statement-breakpoint
CREATE TABLE "planned_audit_team" (
	"planned_audit_id" uuid NOT NULL,
	"auditor_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "planned_audit_team_planned_audit_id_auditor_id_pk" PRIMARY KEY("planned_audit_id","auditor_id"),
	CONSTRAINT "planned_audit_team_role_ck" CHECK ("planned_audit_team"."role" in ('LEAD_AUDITOR', 'AUDITOR', 'TECHNICAL_EXPERT', 'TRAINEE'))
);
--> statement-breakpoint
CREATE TABLE "planned_audits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"scheme_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"audit_days" double precision NOT NULL,
	"days_reason" text,
	"state" text DEFAULT 'PLANNED' NOT NULL,
	"notes" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "planned_audits_kind_ck" CHECK ("planned_audits"."kind" in ('STAGE1', 'STAGE2', 'SURVEILLANCE', 'RECERTIFICATION', 'SPECIAL')),
	CONSTRAINT "planned_audits_state_ck" CHECK ("planned_audits"."state" in ('PLANNED', 'DONE', 'CANCELLED')),
	CONSTRAINT "planned_audits_dates_ck" CHECK ("planned_audits"."end_date" >= "planned_audits"."start_date"),
	CONSTRAINT "planned_audits_days_ck" CHECK ("planned_audits"."audit_days" > 0 and "planned_audits"."audit_days" * 2 = floor("planned_audits"."audit_days" * 2))
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "ical" text;--> statement-breakpoint
ALTER TABLE "audit_day_bands" ADD CONSTRAINT "audit_day_bands_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_day_bands" ADD CONSTRAINT "audit_day_bands_certification_id_certification_types_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."certification_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auditor_conflicts" ADD CONSTRAINT "auditor_conflicts_auditor_id_auditors_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."auditors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auditor_conflicts" ADD CONSTRAINT "auditor_conflicts_client_id_client_certificates_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auditor_qualifications" ADD CONSTRAINT "auditor_qualifications_auditor_id_auditors_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."auditors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auditor_qualifications" ADD CONSTRAINT "auditor_qualifications_certification_id_certification_types_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."certification_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auditors" ADD CONSTRAINT "auditors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_audit_team" ADD CONSTRAINT "planned_audit_team_planned_audit_id_planned_audits_id_fk" FOREIGN KEY ("planned_audit_id") REFERENCES "public"."planned_audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_audit_team" ADD CONSTRAINT "planned_audit_team_auditor_id_auditors_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."auditors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_audits" ADD CONSTRAINT "planned_audits_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_day_bands_company_idx" ON "audit_day_bands" USING btree ("company_id","certification_id");--> statement-breakpoint
CREATE INDEX "auditor_conflicts_auditor_idx" ON "auditor_conflicts" USING btree ("auditor_id","position");--> statement-breakpoint
CREATE INDEX "auditor_conflicts_client_idx" ON "auditor_conflicts" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "auditor_qualifications_auditor_idx" ON "auditor_qualifications" USING btree ("auditor_id","position");--> statement-breakpoint
CREATE INDEX "auditor_qualifications_certification_idx" ON "auditor_qualifications" USING btree ("certification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auditors_email_uq" ON "auditors" USING btree ("company_id",lower("email")) WHERE "auditors"."email" is not null;--> statement-breakpoint
CREATE INDEX "auditors_company_name_idx" ON "auditors" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "planned_audit_team_auditor_idx" ON "planned_audit_team" USING btree ("auditor_id");--> statement-breakpoint
CREATE INDEX "planned_audits_company_start_idx" ON "planned_audits" USING btree ("company_id","start_date");--> statement-breakpoint
CREATE INDEX "planned_audits_scheme_idx" ON "planned_audits" USING btree ("scheme_id");