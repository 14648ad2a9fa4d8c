-- Service accounts (DESIGN.md §11, §16): a machine client's account is marked, holds no password and
-- never signs in interactively; names beginning svc- are reserved for these accounts.
ALTER TABLE "users" ADD COLUMN "service_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Accounts already linked to a machine client become service accounts. An earlier version adopted an
-- existing user of the name svc-<key>, which may have been made by someone who knows its password:
-- the password goes ('!' is no hash any password matches), and so do the account's console sessions
-- and single sign-on sessions and grants.
UPDATE "users" SET "service_account" = true, "password_hash" = '!', "password_is_initial" = 0, "must_change_password" = 0
  WHERE "id" IN (SELECT "service_user_id" FROM "oidc_clients" WHERE "service_user_id" IS NOT NULL);--> statement-breakpoint
DELETE FROM "sessions" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "service_account");--> statement-breakpoint
DELETE FROM "oidc_payloads" WHERE "account_id" IN (SELECT "id"::text FROM "users" WHERE "service_account");--> statement-breakpoint
-- Machine tokens refused before they expire (DESIGN.md §19): a revoked token (`jti:<jti>`), or every
-- token a client was given up to `before` (`client:<client id>`: sign-on turned off, service deleted).
-- Every instance holds the rows in memory (cache/machine-token-denials.ts); a change bumps the session
-- counter and notifies every instance, as a session ended does (migration 0004).
CREATE TABLE "machine_token_denials" (
	"key" varchar(160) PRIMARY KEY NOT NULL,
	"before" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE TRIGGER machine_token_denied AFTER INSERT OR UPDATE OR TRUNCATE ON "machine_token_denials" FOR EACH STATEMENT EXECUTE FUNCTION amg_session_changed();
