-- Hardening (DESIGN.md §11). Files get a random public id (existing rows get one here) used in URLs
-- instead of the sequential key; every "unique" rule is an index: permission unique_key joins the
-- names made unique in 0000 (NULLs stay distinct, so only keys that are set must differ).
-- Stored data that already breaks a rule (two nodes with one unique_key, only possible through a
-- race before this index) makes this migration fail; find it with
--   select unique_key from auths where unique_key is not null group by 1 having count(*) > 1
ALTER TABLE "files" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "auths_unique_key_key" ON "auths" USING btree ("unique_key");--> statement-breakpoint
CREATE UNIQUE INDEX "files_public_id_key" ON "files" USING btree ("public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "files_storage_name_key" ON "files" USING btree ("storage_name");