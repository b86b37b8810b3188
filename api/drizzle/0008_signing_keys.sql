CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "signing_keys_kid_ck" CHECK ("signing_keys"."kid" ~ '^[A-Za-z0-9_-]+$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active_uq" ON "signing_keys" USING btree (("retired_at" is null)) WHERE "signing_keys"."retired_at" is null;