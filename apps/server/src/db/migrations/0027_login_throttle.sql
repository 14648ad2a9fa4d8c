-- The sign-in throttle's counters, shared by every instance on this database (DESIGN.md §19,
-- auth/pg-throttle.ts): per account+address (kind 0), per address (1) and per account (2), each with
-- its failures and the time of the latest (ms since the epoch, the server's clock). UNLOGGED: a crash
-- forgets them, the safe side, and a guess writes no WAL. `prev_ms` is the time before the latest
-- failure and `stamp` the attempt that counted it, so an attempt never judged can be taken back. The
-- embedded database keeps its counters in memory and leaves this table empty.
CREATE UNLOGGED TABLE "login_throttle" (
  "kind" smallint NOT NULL,
  "key" text NOT NULL,
  "failures" integer NOT NULL,
  "last_ms" bigint NOT NULL,
  "prev_ms" bigint,
  "stamp" bigint NOT NULL,
  PRIMARY KEY ("kind", "key")
);
--> statement-breakpoint
CREATE INDEX "login_throttle_last_ms" ON "login_throttle" ("last_ms");
