-- Admin studio (issue 13): editor roles, featured/cancelled/soft-deleted events, revisions for
-- optimistic concurrency (If-Match), slug history (old slugs answer 301) and the audit log.
ALTER TYPE "event_status" ADD VALUE IF NOT EXISTS 'deleted';--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "admin_users" SET "role" = 'owner' WHERE "role" = 'admin';--> statement-breakpoint
ALTER TABLE "admin_users" ALTER COLUMN "role" SET DEFAULT 'editor';--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_featured" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "status_before_delete" "event_status";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "news_articles" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE TABLE "slug_redirects" (
	"entity" text NOT NULL,
	"old_slug" text NOT NULL,
	"target_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slug_redirects_pk" PRIMARY KEY ("entity", "old_slug"),
	CONSTRAINT "slug_redirects_entity_check" CHECK ("entity" IN ('event', 'news'))
);--> statement-breakpoint
CREATE INDEX "slug_redirects_target_idx" ON "slug_redirects" ("entity", "target_id");--> statement-breakpoint
CREATE TRIGGER slug_redirects_bump_public_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON slug_redirects FOR EACH STATEMENT EXECUTE FUNCTION bump_public_version();--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"admin_id" text REFERENCES "admin_users"("id"),
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" ("created_at", "id");--> statement-breakpoint
CREATE INDEX "audit_log_admin_idx" ON "audit_log" ("admin_id", "created_at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" ("entity", "entity_id", "created_at");--> statement-breakpoint
CREATE INDEX "events_featured_idx" ON "events" ("is_featured", "status") WHERE "is_featured";
