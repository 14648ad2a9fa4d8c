-- Data scope (DESIGN.md §13): how much of the company's data a role reaches for the calls it allows.
-- Every existing role, the super-admin roles included, reads as 1 (全部数据), so nothing narrows.
ALTER TABLE "roles" ADD COLUMN "data_scope" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A 自定义部门 (2) role's chosen departments, each reaching everything below it; a department or
-- role that goes takes its rows with it.
CREATE TABLE "role_scope_orgs" (
	"role_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	CONSTRAINT "role_scope_orgs_role_id_org_id_pk" PRIMARY KEY("role_id","org_id")
);
--> statement-breakpoint
ALTER TABLE "role_scope_orgs" ADD CONSTRAINT "role_scope_orgs_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_scope_orgs" ADD CONSTRAINT "role_scope_orgs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "role_scope_orgs_org_id_idx" ON "role_scope_orgs" USING btree ("org_id");--> statement-breakpoint
-- Cached decisions and scopes are dropped on every instance when a scope can change (migration 0001):
-- roles (data_scope), positions and position_users already carry the trigger; the chosen departments
-- and the department tree (a move changes subtrees, a deletion removes them) now do too. The link
-- table is audited like the other links (migration 0007), so the operation log shows the departments.
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.role_scope_orgs FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
CREATE TRIGGER audit_inserted AFTER INSERT ON public.role_scope_orgs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION amg_audit_links('role', 'role_id', 'org', 'org_id');--> statement-breakpoint
CREATE TRIGGER audit_updated AFTER UPDATE ON public.role_scope_orgs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION amg_audit_links('role', 'role_id', 'org', 'org_id');--> statement-breakpoint
CREATE TRIGGER audit_deleted AFTER DELETE ON public.role_scope_orgs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION amg_audit_links('role', 'role_id', 'org', 'org_id');--> statement-breakpoint
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.organizations FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();--> statement-breakpoint
-- The role list kept in memory shows each role's chosen departments (migration 0008).
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE ON "role_scope_orgs" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');
--> statement-breakpoint
-- The log names a role's chosen department like the other linked records (migration 0007).
CREATE OR REPLACE FUNCTION amg_record_name(record_type text, record_id text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE record_type
    WHEN 'user' THEN (SELECT nick_name FROM users WHERE id = record_id::int)
    WHEN 'role' THEN (SELECT role_name FROM roles WHERE id = record_id::int)
    WHEN 'group' THEN (SELECT group_name FROM user_groups WHERE id = record_id::int)
    WHEN 'auth' THEN (SELECT ch_name FROM auths WHERE code = record_id)
    WHEN 'position' THEN (SELECT amg_position_name(to_jsonb(p)) FROM positions p WHERE p.id = record_id::int)
    WHEN 'org' THEN (SELECT organization_name FROM organizations WHERE id = record_id::int)
  END
$$;
