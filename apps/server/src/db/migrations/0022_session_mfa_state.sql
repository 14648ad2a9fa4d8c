-- Whether a user has two-step sign-in on is part of what the session cache holds
-- (cache/session-cache.ts: GET /user/current answers it without a query): turning it on or off, or a
-- row removed, says the cache is stale, like a change of the session's restriction (migration 0016).
-- A step accepted at sign-in (last_step) changes nothing the cache holds.
DROP TRIGGER IF EXISTS session_mfa_changed ON "user_mfa";--> statement-breakpoint
CREATE TRIGGER session_mfa_changed AFTER INSERT OR UPDATE OF "enabled" OR DELETE OR TRUNCATE ON "user_mfa" FOR EACH STATEMENT EXECUTE FUNCTION amg_session_changed();
