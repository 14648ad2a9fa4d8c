-- Expiring links (DESIGN.md §20): a user's link to a role, a group or a position may hold until a
-- time (null: permanent). The decision ignores a link past it at once; a sweeper deletes it later.
-- The partial indexes serve the sweeper and the earliest-expiry read of a user's access, and stay
-- empty while nobody uses expiry.
ALTER TABLE "user_roles" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_group_users" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "position_users" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "user_roles_expires_at_idx" ON "user_roles" ("expires_at") WHERE "expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_group_users_expires_at_idx" ON "user_group_users" ("expires_at") WHERE "expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "position_users_expires_at_idx" ON "position_users" ("expires_at") WHERE "expires_at" IS NOT NULL;
