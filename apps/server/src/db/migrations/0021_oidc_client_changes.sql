-- The provider keeps the single sign-on clients in memory (cache/client-cache.ts), cleared with the
-- access cache: a change to a service's sign-on settings bumps 'authz' and NOTIFYs every instance,
-- as a change to services already does (migration 0009). Named apart from the registry's access_changed
-- triggers (db/table-triggers.ts): the clients are neither records nor links of the operation log.
CREATE TRIGGER oidc_client_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "oidc_clients" FOR EACH STATEMENT EXECUTE FUNCTION amg_access_changed();
