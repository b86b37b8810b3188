CREATE TABLE "login_throttle_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_throttle_keys_at_idx" ON "login_throttle_keys" USING btree ("at");