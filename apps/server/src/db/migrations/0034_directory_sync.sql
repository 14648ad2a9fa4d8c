-- Directory sync by LDAP (DESIGN.md §22): the settings (one row; the bind password sealed with the
-- server's secret key), the runs with their diffs for the settings page, and the diff of a sync job
-- as GET /import/job answers it on PostgreSQL.
CREATE TABLE "ldap_settings" (
  "id" smallint PRIMARY KEY,
  "enabled" boolean NOT NULL DEFAULT false,
  "url" text NOT NULL,
  "bind_dn" text NOT NULL,
  "bind_password" text,
  "base_dn" text NOT NULL,
  "user_filter" text NOT NULL,
  "group_filter" text NOT NULL,
  "attributes" jsonb NOT NULL,
  "department_from" varchar(16) NOT NULL DEFAULT 'ou',
  "default_station_name" varchar(64) NOT NULL,
  "start_tls" boolean NOT NULL DEFAULT false,
  "sync_minutes" integer NOT NULL DEFAULT 0,
  -- the administrator who saved the settings: a scheduled sync acts in their name, with their power
  "update_user_id" integer REFERENCES "users" ("id") ON DELETE SET NULL,
  "update_time" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "directory_sync_runs" (
  "id" text PRIMARY KEY,
  "dry_run" boolean NOT NULL,
  "trigger" varchar(16) NOT NULL,
  "status" varchar(16) NOT NULL,
  "msg" text,
  "operator_id" integer,
  "operator_name" varchar(64),
  "started_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz,
  "diff" jsonb
);
--> statement-breakpoint
CREATE INDEX "directory_sync_runs_started_at_idx" ON "directory_sync_runs" ("started_at");
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "diff" jsonb;
