DROP TABLE "audit_changes" CASCADE;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD COLUMN "row_changes" jsonb;--> statement-breakpoint
-- The operation log's triggers no longer stage each row in a table that the write then reads back:
-- each statement appends what it changed to a transaction-local setting (amg.staged), and the log
-- row takes it in the same insert (audit/operation-log.ts). A rolled-back savepoint takes its part
-- with it; the setting ends with the transaction. Statement triggers with transition tables: one
-- append per statement, however many rows it touched.
DROP FUNCTION IF EXISTS amg_audit_row() CASCADE;--> statement-breakpoint
-- A position has no name of its own: it is its department and job title.
CREATE FUNCTION amg_position_name(position_row jsonb) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT (SELECT organization_name FROM organizations WHERE id = (position_row->>'org_id')::int) || '-' ||
         (SELECT station_name FROM stations WHERE id = (position_row->>'station_id')::int)
$$;--> statement-breakpoint
-- A record's name as the log shows it (audit/changes.ts names records the same way).
CREATE FUNCTION amg_record_name(record_type text, record_id text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE record_type
    WHEN 'user' THEN (SELECT nick_name FROM users WHERE id = record_id::int)
    WHEN 'role' THEN (SELECT role_name FROM roles WHERE id = record_id::int)
    WHEN 'group' THEN (SELECT group_name FROM user_groups WHERE id = record_id::int)
    WHEN 'auth' THEN (SELECT ch_name FROM auths WHERE code = record_id)
    WHEN 'position' THEN (SELECT amg_position_name(to_jsonb(p)) FROM positions p WHERE p.id = record_id::int)
  END
$$;--> statement-breakpoint
-- Secrets never reach the log: a password hash becomes 已修改 when it was set or changed, and
-- disappears otherwise; a file's storage name always disappears.
CREATE FUNCTION amg_audit_redact(row_now jsonb, row_before jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT (row_now - 'password_hash' - 'storage_name')
    || CASE WHEN coalesce(row_now->'password_hash', 'null'::jsonb) <> 'null'::jsonb
              AND row_now->'password_hash' IS DISTINCT FROM row_before->'password_hash'
         THEN '{"password_hash": "已修改"}'::jsonb ELSE '{}'::jsonb END
$$;--> statement-breakpoint
CREATE FUNCTION amg_audit_stage(items jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT set_config('amg.staged',
    (coalesce(nullif(current_setting('amg.staged', true), ''), '[]')::jsonb || items)::text, true)
$$;--> statement-breakpoint
-- A staged record row's own name when its columns do not hold it (positions), else nothing.
CREATE FUNCTION amg_audit_own_name(table_name text, record_row jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN table_name = 'positions'
    THEN jsonb_build_object('name', amg_position_name(record_row)) ELSE '{}'::jsonb END
$$;--> statement-breakpoint
-- A staged record row: its table, the operation, the row before and after (secrets out), and its
-- name when no column of its own holds it.
CREATE FUNCTION amg_audit_record(table_name text, op text, row_before jsonb, row_after jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('table', table_name, 'op', op,
      'old', amg_audit_redact(row_before, row_before), 'new', amg_audit_redact(row_after, row_before))
    || amg_audit_own_name(table_name, coalesce(row_after, row_before))
$$;--> statement-breakpoint
-- Records (TG_ARGV: the key column, id or code): an update pairs each row's before and after by the
-- key. Static statements, not EXECUTE: PL/pgSQL keeps their plans, so a write plans nothing here.
CREATE FUNCTION amg_audit_records() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE items jsonb;
BEGIN
  IF coalesce(current_setting('amg.audit', true), '') <> 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(amg_audit_record(TG_TABLE_NAME, TG_OP, NULL, to_jsonb(n))) INTO items FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(amg_audit_record(TG_TABLE_NAME, TG_OP, to_jsonb(o), NULL)) INTO items FROM old_rows o;
  ELSIF TG_ARGV[0] = 'code' THEN
    SELECT jsonb_agg(amg_audit_record(TG_TABLE_NAME, TG_OP, to_jsonb(o), to_jsonb(n))) INTO items
      FROM old_rows o JOIN new_rows n ON n.code = o.code;
  ELSE
    SELECT jsonb_agg(amg_audit_record(TG_TABLE_NAME, TG_OP, to_jsonb(o), to_jsonb(n))) INTO items
      FROM old_rows o JOIN new_rows n ON n.id = o.id;
  END IF;
  IF items IS NOT NULL THEN
    PERFORM amg_audit_stage(items);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A staged link row: added ('INSERT', as 'new') or removed ('DELETE', as 'old'), with both records'
-- names as they are now (one side's record type and column, then the other's).
CREATE FUNCTION amg_audit_link(table_name text, op text, link jsonb,
    type_a text, column_a text, type_b text, column_b text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('table', table_name, 'op', op, CASE op WHEN 'DELETE' THEN 'old' ELSE 'new' END, link,
    'names', jsonb_build_object(column_a, amg_record_name(type_a, link->>column_a),
                                column_b, amg_record_name(type_b, link->>column_b)))
$$;--> statement-breakpoint
-- Links (TG_ARGV: one side's record type and column, the other's): every row is a link added or
-- removed; an update, which only a cascade makes, is both.
CREATE FUNCTION amg_audit_links() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE items jsonb := '[]'::jsonb;
BEGIN
  IF coalesce(current_setting('amg.audit', true), '') <> 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT items || coalesce(jsonb_agg(amg_audit_link(TG_TABLE_NAME, 'DELETE', to_jsonb(o),
      TG_ARGV[0], TG_ARGV[1], TG_ARGV[2], TG_ARGV[3])), '[]')
      INTO items FROM old_rows o;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    SELECT items || coalesce(jsonb_agg(amg_audit_link(TG_TABLE_NAME, 'INSERT', to_jsonb(n),
      TG_ARGV[0], TG_ARGV[1], TG_ARGV[2], TG_ARGV[3])), '[]')
      INTO items FROM new_rows n;
  END IF;
  IF jsonb_array_length(items) > 0 THEN
    PERFORM amg_audit_stage(items);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A trigger with transition tables serves one event, so each table gets three.
DO $$
DECLARE
  t record;
  fn text;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('users', 'amg_audit_records', '''id'''),
    ('roles', 'amg_audit_records', '''id'''),
    ('auths', 'amg_audit_records', '''code'''),
    ('user_groups', 'amg_audit_records', '''id'''),
    ('organizations', 'amg_audit_records', '''id'''),
    ('stations', 'amg_audit_records', '''id'''),
    ('positions', 'amg_audit_records', '''id'''),
    ('files', 'amg_audit_records', '''id'''),
    ('role_auths', 'amg_audit_links', '''role'', ''role_id'', ''auth'', ''auth_code'''),
    ('user_roles', 'amg_audit_links', '''user'', ''user_id'', ''role'', ''role_id'''),
    ('user_group_users', 'amg_audit_links', '''group'', ''group_id'', ''user'', ''user_id'''),
    ('user_group_roles', 'amg_audit_links', '''group'', ''group_id'', ''role'', ''role_id'''),
    ('position_users', 'amg_audit_links', '''position'', ''position_id'', ''user'', ''user_id'''),
    ('position_roles', 'amg_audit_links', '''position'', ''position_id'', ''role'', ''role_id''')
  ) AS v(tbl, func, args) LOOP
    EXECUTE format('CREATE TRIGGER audit_inserted AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)', t.tbl, t.func, t.args);
    EXECUTE format('CREATE TRIGGER audit_updated AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)', t.tbl, t.func, t.args);
    EXECUTE format('CREATE TRIGGER audit_deleted AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)', t.tbl, t.func, t.args);
  END LOOP;
END;
$$;
