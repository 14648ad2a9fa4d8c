-- The operation log's link triggers (migration 0007) name both sides of every link row as before,
-- but set-wise: each side's distinct ids are named once per statement, by one query per record type,
-- and joined to the rows, instead of a sub-select per row and side (an import links 1,000 users a
-- statement). What is staged is unchanged: the same items, in the same order, with the same names.
CREATE FUNCTION amg_record_names(record_type text, ids text[]) RETURNS TABLE(id text, name text) LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF record_type = 'user' THEN
    RETURN QUERY SELECT u.id::text, u.nick_name::text FROM users u WHERE u.id = ANY(ids::int[]);
  ELSIF record_type = 'role' THEN
    RETURN QUERY SELECT r.id::text, r.role_name::text FROM roles r WHERE r.id = ANY(ids::int[]);
  ELSIF record_type = 'group' THEN
    RETURN QUERY SELECT g.id::text, g.group_name::text FROM user_groups g WHERE g.id = ANY(ids::int[]);
  ELSIF record_type = 'auth' THEN
    RETURN QUERY SELECT a.code::text, a.ch_name::text FROM auths a WHERE a.code = ANY(ids);
  ELSIF record_type = 'position' THEN
    -- a position is its department and job title (amg_position_name)
    RETURN QUERY SELECT p.id::text, (o.organization_name || '-' || s.station_name)::text
      FROM positions p
      LEFT JOIN organizations o ON o.id = p.org_id
      LEFT JOIN stations s ON s.id = p.station_id
      WHERE p.id = ANY(ids::int[]);
  ELSIF record_type = 'org' THEN
    RETURN QUERY SELECT o.id::text, o.organization_name::text FROM organizations o WHERE o.id = ANY(ids::int[]);
  END IF;
END;
$$;--> statement-breakpoint
-- Links (TG_ARGV: one side's record type and column, the other's): every row is a link added or
-- removed; an update, which only a cascade makes, is both (the removed first, as before).
CREATE OR REPLACE FUNCTION amg_audit_links() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed jsonb[] := '{}';
  added jsonb[] := '{}';
  items jsonb;
BEGIN
  IF coalesce(current_setting('amg.audit', true), '') <> 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(array_agg(to_jsonb(o)), '{}') INTO removed FROM old_rows o;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    SELECT coalesce(array_agg(to_jsonb(n)), '{}') INTO added FROM new_rows n;
  END IF;
  WITH changed AS (
    SELECT 'DELETE' AS op, r.link, r.k FROM unnest(removed) WITH ORDINALITY AS r(link, k)
    UNION ALL
    SELECT 'INSERT', a.link, cardinality(removed) + a.k FROM unnest(added) WITH ORDINALITY AS a(link, k)
  ), side_a AS (
    SELECT * FROM amg_record_names(TG_ARGV[0], ARRAY(SELECT DISTINCT c.link->>TG_ARGV[1] FROM changed c))
  ), side_b AS (
    SELECT * FROM amg_record_names(TG_ARGV[2], ARRAY(SELECT DISTINCT c.link->>TG_ARGV[3] FROM changed c))
  )
  SELECT jsonb_agg(jsonb_build_object('table', TG_TABLE_NAME, 'op', c.op,
      CASE c.op WHEN 'DELETE' THEN 'old' ELSE 'new' END, c.link,
      'names', jsonb_build_object(TG_ARGV[1], a.name, TG_ARGV[3], b.name)) ORDER BY c.k)
    INTO items
    FROM changed c
    LEFT JOIN side_a a ON a.id = c.link->>TG_ARGV[1]
    LEFT JOIN side_b b ON b.id = c.link->>TG_ARGV[3];
  IF items IS NOT NULL THEN
    PERFORM amg_audit_stage(items);
  END IF;
  RETURN NULL;
END;
$$;
