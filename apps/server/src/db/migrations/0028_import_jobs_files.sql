-- DESIGN.md §19: with several instances on one PostgreSQL database, import jobs and uploaded files live
-- in the database, so any instance answers for them. The embedded database keeps both in its process
-- and data directory as before; these tables stay empty there.
CREATE TABLE "import_jobs" (
  "id" text PRIMARY KEY,
  "kind" text NOT NULL,
  "mode" text NOT NULL,
  "dry_run" boolean NOT NULL,
  "owner_id" integer NOT NULL,
  "file_name" text NOT NULL,
  "status" text NOT NULL,
  "total" integer NOT NULL,
  "done" integer NOT NULL DEFAULT 0,
  "inserted" integer NOT NULL DEFAULT 0,
  "updated" integer NOT NULL DEFAULT 0,
  "unchanged" integer NOT NULL DEFAULT 0,
  "failed" integer NOT NULL DEFAULT 0,
  "msg" text,
  -- the instance running the job keeps this in the future (a heartbeat); once it has passed, the
  -- instance is gone and any instance marks the job interrupted
  "lease_until" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz
);
--> statement-breakpoint
-- one import at a time for the whole company, whichever instance runs it
CREATE UNIQUE INDEX "import_jobs_one_running" ON "import_jobs" ((true)) WHERE "status" = 'running';
--> statement-breakpoint
CREATE INDEX "import_jobs_finished_at_idx" ON "import_jobs" ("finished_at");
--> statement-breakpoint
-- a finished job's result workbook, in pieces of at most 256 KiB
CREATE TABLE "import_job_chunks" (
  "job_id" text NOT NULL REFERENCES "import_jobs" ("id") ON DELETE CASCADE,
  "seq" integer NOT NULL,
  "data" bytea NOT NULL,
  PRIMARY KEY ("job_id", "seq")
);
--> statement-breakpoint
-- an uploaded file's bytes, in pieces of at most 256 KiB; written before its `files` row (the upload
-- is received before the request's transaction opens), so pieces without a row are leftovers once old
CREATE TABLE "file_chunks" (
  "storage_name" varchar(128) NOT NULL,
  "seq" integer NOT NULL,
  "data" bytea NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("storage_name", "seq")
);
--> statement-breakpoint
CREATE INDEX "file_chunks_created_at_idx" ON "file_chunks" ("created_at") WHERE "seq" = 0;
