-- The role list is kept in memory (modules/role/service.ts) with the other lists: any change to a role
-- bumps 'lists' and NOTIFYs every instance. The creator and updater names it shows come from users,
-- whose nick_name already bumps 'lists' (migration 0005).
CREATE TRIGGER list_rows_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION amg_cached_rows_changed('lists');
