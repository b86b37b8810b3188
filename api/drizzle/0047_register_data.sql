CREATE TABLE "client_sites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"city" text,
	"province" text,
	"postcode" text,
	"country" text DEFAULT 'ID' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accredited_bodies" ADD COLUMN "acronym" text;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD COLUMN "name_en" text;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD COLUMN "province" text;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD COLUMN "postcode" text;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD COLUMN "country" text DEFAULT 'ID' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "original_issue_date" date;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "sector_codes" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "sites" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_sites" ADD CONSTRAINT "client_sites_client_fk" FOREIGN KEY ("client_id","company_id") REFERENCES "public"."client_certificates"("id","company_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_sites_client_idx" ON "client_sites" USING btree ("client_id",lower("name"));--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_sector_codes_ck" CHECK ("schemes"."sector_codes" <@ array[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39]::integer[]);--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_revision_ck" CHECK ("schemes"."revision" >= 0);