-- Names are stored in one form (DESIGN.md §11, packages/contract names.ts): NFKC, no invisible or
-- format characters, one space between words, no spaces at the ends. The API refuses or normalises
-- every name from now on; this brings the names stored before into the same form, so that `admin`
-- followed by a zero-width space can no longer pass for `admin`, and a user stored as `ａｄｍｉｎ`
-- still signs in (sign-in normalises the typed name).
--
-- The two character classes are the contract's INVISIBLE set (test/names-migration.test.ts checks
-- they match it): white space other than the plain space becomes a space, every other invisible,
-- format or default-ignorable character goes. A cleaned name that another record already holds (or
-- that an earlier record of the same clean name gets) becomes `name#id`, so nothing collides and
-- the look-alike stays visibly apart; a name left empty becomes `#id`. A department name does not
-- take the '-' that joins department paths: a full-width hyphen normalised to '-' becomes '‐' (U+2010).
CREATE FUNCTION amg_clean_name(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  select normalize(btrim(regexp_replace(regexp_replace(regexp_replace(normalize(t, NFKC),
    '[\u0009-\u000d\u0085\u00a0\u1680\u2000-\u200a\u2028-\u2029\u202f\u205f\u3000]', ' ', 'g'),
    '[\u0001-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]', '', 'g'),
    ' {2,}', ' ', 'g')), NFKC)
$$;
--> statement-breakpoint
-- `name#id` within the column's 64 characters
CREATE FUNCTION amg_name_with_id(name text, id text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  select left(name, 64 - length(id) - 1) || '#' || id
$$;
--> statement-breakpoint
WITH cleaned AS (
  SELECT id, nick_name AS old, left(amg_clean_name(nick_name), 64) AS name FROM users
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY name ORDER BY old = name DESC, id) AS n FROM cleaned
)
UPDATE users u SET nick_name = CASE WHEN r.n = 1 AND r.name <> '' THEN r.name ELSE amg_name_with_id(r.name, r.id::text) END
FROM ranked r WHERE u.id = r.id AND (r.old <> r.name OR r.n > 1 OR r.name = '');
--> statement-breakpoint
UPDATE users SET real_name = nullif(left(amg_clean_name(real_name), 64), '')
WHERE real_name IS NOT NULL AND real_name IS DISTINCT FROM nullif(left(amg_clean_name(real_name), 64), '');
--> statement-breakpoint
WITH cleaned AS (
  SELECT id, role_name AS old, left(amg_clean_name(role_name), 64) AS name FROM roles
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY name ORDER BY old = name DESC, id) AS n FROM cleaned
)
UPDATE roles t SET role_name = CASE WHEN r.n = 1 AND r.name <> '' THEN r.name ELSE amg_name_with_id(r.name, r.id::text) END
FROM ranked r WHERE t.id = r.id AND (r.old <> r.name OR r.n > 1 OR r.name = '');
--> statement-breakpoint
WITH cleaned AS (
  SELECT id, group_name AS old, left(amg_clean_name(group_name), 64) AS name FROM user_groups
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY name ORDER BY old = name DESC, id) AS n FROM cleaned
)
UPDATE user_groups t SET group_name = CASE WHEN r.n = 1 AND r.name <> '' THEN r.name ELSE amg_name_with_id(r.name, r.id::text) END
FROM ranked r WHERE t.id = r.id AND (r.old <> r.name OR r.n > 1 OR r.name = '');
--> statement-breakpoint
WITH cleaned AS (
  SELECT id, station_name AS old, left(amg_clean_name(station_name), 64) AS name FROM stations
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY name ORDER BY old = name DESC, id) AS n FROM cleaned
)
UPDATE stations t SET station_name = CASE WHEN r.n = 1 AND r.name <> '' THEN r.name ELSE amg_name_with_id(r.name, r.id::text) END
FROM ranked r WHERE t.id = r.id AND (r.old <> r.name OR r.n > 1 OR r.name = '');
--> statement-breakpoint
WITH cleaned AS (
  SELECT id, parent, organization_name AS old,
    left(replace(amg_clean_name(organization_name), '-', '‐'), 64) AS name FROM organizations
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY parent, name ORDER BY old = name DESC, id) AS n FROM cleaned
)
UPDATE organizations t SET organization_name = CASE WHEN r.n = 1 AND r.name <> '' THEN r.name ELSE amg_name_with_id(r.name, r.id::text) END
FROM ranked r WHERE t.id = r.id AND (r.old <> r.name OR r.n > 1 OR r.name = '');
--> statement-breakpoint
UPDATE auths SET
  ch_name = coalesce(nullif(left(amg_clean_name(ch_name), 64), ''), code),
  en_name = coalesce(nullif(left(amg_clean_name(en_name), 64), ''), code)
WHERE ch_name <> coalesce(nullif(left(amg_clean_name(ch_name), 64), ''), code)
   OR en_name <> coalesce(nullif(left(amg_clean_name(en_name), 64), ''), code);
--> statement-breakpoint
-- the operation log's filter by operator id: operators with look-alike names are told apart by id
CREATE INDEX "operation_logs_operator_id_time_idx" ON "operation_logs" USING btree ("operator_id","time");
--> statement-breakpoint
DROP FUNCTION amg_name_with_id(text, text);
--> statement-breakpoint
DROP FUNCTION amg_clean_name(text);
