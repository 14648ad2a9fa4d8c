-- Invalidation follows the data (DESIGN.md §6): any statement that changes a table deciding access
-- bumps authz_version and NOTIFYs every instance, whichever route or script ran it. The sequence is
-- not transactional, so bumping it takes no lock; a rolled-back change only costs a spurious refresh.
CREATE SEQUENCE IF NOT EXISTS "public"."authz_version_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION amg_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('authz_version_seq');
  PERFORM pg_notify('amg_events', 'authz');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_auths" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "auths" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_roles" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_groups" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_group_users" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_group_roles" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "positions" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "position_users" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "position_roles" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();
