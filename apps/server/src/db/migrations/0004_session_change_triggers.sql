-- Sessions are kept in memory once read (auth/session-cache.ts); these triggers say when that memory is
-- stale, whichever route or script made the change: a session ended or altered, or a user frozen,
-- renamed, removed or no longer on the initial password. Like authz_version_seq, the sequence takes no
-- lock, and a delete that touched no row bumps nothing (transition tables), so the expired-session
-- sweep at each sign-in costs nothing.
CREATE SEQUENCE IF NOT EXISTS "public"."session_version_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION amg_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('session_version_seq');
  PERFORM pg_notify('amg_events', 'session');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION amg_session_rows_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gone) THEN
    PERFORM nextval('session_version_seq');
    PERFORM pg_notify('amg_events', 'session');
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER session_rows_gone AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION amg_session_rows_gone();--> statement-breakpoint
CREATE TRIGGER session_changed AFTER UPDATE OF "token_hash", "user_id", "expires_at" OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION amg_session_changed();--> statement-breakpoint
CREATE TRIGGER session_user_rows_gone AFTER DELETE ON "users" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION amg_session_rows_gone();--> statement-breakpoint
CREATE TRIGGER session_user_changed AFTER UPDATE OF "status", "nick_name", "real_name", "password_is_initial" OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION amg_session_changed();
