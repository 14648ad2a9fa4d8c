-- Directory sync (DESIGN.md §22): where a user or a user group comes from ('local' for the console,
-- an import or the API; 'ldap' for the LDAP sync; 'scim' for a SCIM client) and its id there, so a
-- re-run of the sync or a SCIM client's call finds the same record again whatever its name became.
ALTER TABLE "users" ADD COLUMN "source" varchar(16) DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "external_id" varchar(255);--> statement-breakpoint
CREATE UNIQUE INDEX "users_source_external_id_key" ON "users" ("source", "external_id") WHERE "external_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "user_groups" ADD COLUMN "source" varchar(16) DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_groups" ADD COLUMN "external_id" varchar(255);--> statement-breakpoint
CREATE UNIQUE INDEX "user_groups_source_external_id_key" ON "user_groups" ("source", "external_id") WHERE "external_id" IS NOT NULL;
