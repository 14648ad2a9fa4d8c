-- Substring filters of 3+ characters are served by trigram indexes (pg_trgm ships with PostgreSQL's
-- contrib and with PGlite; it is a trusted extension, so the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX IF EXISTS "users_create_time_idx";--> statement-breakpoint
CREATE INDEX "user_groups_create_time_id_idx" ON "user_groups" USING btree ("create_time","id");--> statement-breakpoint
CREATE INDEX "user_groups_group_name_trgm_idx" ON "user_groups" USING gin ("group_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_groups_description_trgm_idx" ON "user_groups" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_create_time_id_idx" ON "users" USING btree ("create_time","id");--> statement-breakpoint
CREATE INDEX "users_nick_name_trgm_idx" ON "users" USING gin ("nick_name" gin_trgm_ops);--> statement-breakpoint
-- In-memory list caches (lib/versioned-cache.ts) follow the data, like the access caches of migration
-- 0001: a statement changing what a cached value was read from bumps that family's sequence and NOTIFYs
-- every instance, whichever route or script ran it. 'org': the department tree (names, parents) the
-- position list takes its paths and order from; 'lists': the users, groups and positions whose ids and
-- counts the lists keep. Columns no list sorts, filters or counts by (a login's failed_logins) bump nothing.
CREATE SEQUENCE IF NOT EXISTS "public"."org_version_seq";--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "public"."lists_version_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION amg_cached_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0] names the family: its sequence and its NOTIFY payload
  PERFORM nextval((TG_ARGV[0] || '_version_seq')::regclass);
  PERFORM pg_notify('amg_events', TG_ARGV[0]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER org_tree_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "organization_name", "parent" ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('org');--> statement-breakpoint
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "nick_name", "status", "create_time" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');--> statement-breakpoint
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "group_name", "description", "status", "create_time" ON "user_groups" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');--> statement-breakpoint
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "org_id", "station_id" ON "positions" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');
