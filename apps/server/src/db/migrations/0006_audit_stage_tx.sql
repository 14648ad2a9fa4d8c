ALTER TABLE "audit_changes" ADD COLUMN "tx" bigint DEFAULT txid_current() NOT NULL;--> statement-breakpoint
-- The department tree is kept serialized (modules/org/tree-payload.ts) and shows each description too.
DROP TRIGGER IF EXISTS org_tree_changed ON "organizations";--> statement-breakpoint
CREATE TRIGGER org_tree_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "organization_name", "parent", "description" ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('org');
