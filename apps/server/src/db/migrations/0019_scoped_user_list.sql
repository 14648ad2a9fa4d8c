-- A scoped administrator's user list (DESIGN.md §13) shows the users holding a position in their
-- departments. It is kept in the 'lists' cache (migration 0005) like an unscoped one, so a change to
-- who holds which position bumps 'lists' and NOTIFYs every instance; positions (org_id) and users
-- already do.
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE ON "position_users" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');
