CREATE TABLE "iaf_certsearch_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"api_key" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "iaf_certsearch_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"all_records" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"since" timestamp with time zone,
	"sent" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "iaf_certsearch_uploads_state_ck" CHECK ("iaf_certsearch_uploads"."state" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "iaf_certsearch_uploads_trigger_ck" CHECK ("iaf_certsearch_uploads"."trigger" in ('manual', 'schedule'))
);
--> statement-breakpoint
ALTER TABLE "iaf_certsearch_settings" ADD CONSTRAINT "iaf_certsearch_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iaf_certsearch_uploads" ADD CONSTRAINT "iaf_certsearch_uploads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "iaf_certsearch_uploads_company_idx" ON "iaf_certsearch_uploads" USING btree ("company_id","created_at");