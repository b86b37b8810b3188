CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "accredited_bodies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"icon" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accredited_bodies_id_company_uq" UNIQUE("id","company_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_username" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"company_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	CONSTRAINT "audit_log_action_ck" CHECK ("audit_log"."action" in ('create', 'update', 'delete'))
);
--> statement-breakpoint
CREATE TABLE "certification_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"code" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"valid_for" integer,
	"valid_for_type" text,
	"icon" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certification_types_id_company_uq" UNIQUE("id","company_id"),
	CONSTRAINT "certification_types_vft_ck" CHECK ("certification_types"."valid_for_type" is null or "certification_types"."valid_for_type" in ('YEAR', 'MONTH', 'DAY'))
);
--> statement-breakpoint
CREATE TABLE "client_certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"certificate_number" text NOT NULL,
	"region" text NOT NULL,
	"name" text NOT NULL,
	"logo" text,
	"address" text,
	"scope" text,
	"ea_code" text,
	"nace_code" text,
	"president" text,
	"management_representative" text,
	"foundation_day" date,
	"employees_number" integer,
	"employees_active" integer,
	"phone" text,
	"handphone" text,
	"fax" text,
	"email" text,
	"website" text,
	"qrcode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_certificates_id_company_uq" UNIQUE("id","company_id")
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"address" text,
	"website" text,
	"logo" text,
	"logo_cert" text,
	"ttd_cert" text,
	"simple_dates" boolean DEFAULT false NOT NULL,
	"public_certificate_download" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_name_uq" UNIQUE("name"),
	CONSTRAINT "images_content_type_ck" CHECK ("images"."content_type" in ('image/jpeg', 'image/png'))
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"ip" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "permissions_name_uq" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "role_permissions" (
	"role_id" uuid NOT NULL,
	"permission_id" uuid NOT NULL,
	CONSTRAINT "role_permissions_role_id_permission_id_pk" PRIMARY KEY("role_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schemes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"certificate_id" uuid NOT NULL,
	"certification_id" uuid NOT NULL,
	"accredited_id" uuid,
	"cert_number" text,
	"status" text NOT NULL,
	"issue_date" date NOT NULL,
	"issue_date2" date,
	"valid_for" integer NOT NULL,
	"valid_for_type" text NOT NULL,
	"valid_date" date,
	"expired_date" date NOT NULL,
	"surveillance_date" date,
	"is_accredited" boolean DEFAULT false NOT NULL,
	"description" text,
	"qrcode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schemes_status_ck" CHECK ("schemes"."status" in ('ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'DRAFT', 'NOACTIVE')),
	CONSTRAINT "schemes_vft_ck" CHECK ("schemes"."valid_for_type" in ('YEAR', 'MONTH', 'DAY')),
	CONSTRAINT "schemes_valid_for_ck" CHECK ("schemes"."valid_for" > 0),
	CONSTRAINT "schemes_accredited_ck" CHECK ("schemes"."is_accredited" = false or "schemes"."accredited_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_token_hash_uq" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "training_certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"certification_id" uuid,
	"certificate_number" text NOT NULL,
	"name" text NOT NULL,
	"training" text NOT NULL,
	"location" text NOT NULL,
	"date" date NOT NULL,
	"description" text,
	"qrcode" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_companies" (
	"user_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	CONSTRAINT "user_companies_user_id_company_id_pk" PRIMARY KEY("user_id","company_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles_id" uuid,
	"scope_all" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accredited_bodies" ADD CONSTRAINT "accredited_bodies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_types" ADD CONSTRAINT "certification_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_certificates" ADD CONSTRAINT "client_certificates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_certificate_fk" FOREIGN KEY ("certificate_id","company_id") REFERENCES "public"."client_certificates"("id","company_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_certification_fk" FOREIGN KEY ("certification_id","company_id") REFERENCES "public"."certification_types"("id","company_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_accredited_fk" FOREIGN KEY ("accredited_id","company_id") REFERENCES "public"."accredited_bodies"("id","company_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_certificates" ADD CONSTRAINT "training_certificates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_certificates" ADD CONSTRAINT "training_certification_fk" FOREIGN KEY ("certification_id","company_id") REFERENCES "public"."certification_types"("id","company_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_companies" ADD CONSTRAINT "user_companies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_companies" ADD CONSTRAINT "user_companies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_id_roles_id_fk" FOREIGN KEY ("roles_id") REFERENCES "public"."roles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accredited_bodies_company_idx" ON "accredited_bodies" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "accredited_bodies_name_trgm_idx" ON "accredited_bodies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "certification_types_company_idx" ON "certification_types" USING btree ("company_id","position");--> statement-breakpoint
CREATE INDEX "certification_types_name_trgm_idx" ON "certification_types" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "client_certificates_number_uq" ON "client_certificates" USING btree ("company_id",lower("certificate_number"));--> statement-breakpoint
CREATE INDEX "client_certificates_name_trgm_idx" ON "client_certificates" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "client_certificates_number_trgm_idx" ON "client_certificates" USING gin ("certificate_number" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "companies_name_lower_uq" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "login_failures_username_idx" ON "login_failures" USING btree ("username","at");--> statement-breakpoint
CREATE INDEX "login_failures_ip_idx" ON "login_failures" USING btree ("ip","at");--> statement-breakpoint
CREATE INDEX "role_permissions_perm_idx" ON "role_permissions" USING btree ("permission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_lower_uq" ON "roles" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "schemes_cert_number_uq" ON "schemes" USING btree (lower(trim("cert_number")));--> statement-breakpoint
CREATE INDEX "schemes_certificate_idx" ON "schemes" USING btree ("certificate_id");--> statement-breakpoint
CREATE INDEX "schemes_company_status_idx" ON "schemes" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "schemes_company_expired_idx" ON "schemes" USING btree ("company_id","expired_date");--> statement-breakpoint
CREATE INDEX "schemes_company_issue_idx" ON "schemes" USING btree ("company_id","issue_date");--> statement-breakpoint
CREATE INDEX "schemes_certification_idx" ON "schemes" USING btree ("certification_id");--> statement-breakpoint
CREATE INDEX "schemes_accredited_idx" ON "schemes" USING btree ("accredited_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "training_certificates_number_uq" ON "training_certificates" USING btree (lower(trim("certificate_number")));--> statement-breakpoint
CREATE INDEX "training_certificates_company_date_idx" ON "training_certificates" USING btree ("company_id","date");--> statement-breakpoint
CREATE INDEX "training_certificates_name_trgm_idx" ON "training_certificates" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "training_certificates_number_trgm_idx" ON "training_certificates" USING gin ("certificate_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_companies_company_idx" ON "user_companies" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_uq" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "users_roles_idx" ON "users" USING btree ("roles_id");--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);