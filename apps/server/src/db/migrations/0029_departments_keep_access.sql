-- A department added, removed, renamed or moved no longer bumps the access family ('authz'): that
-- dropped every user's access and the permission tree on each department insert, so a write cost more
-- as the company grew. The department tree has its own family ('org', migration 0005, bumped by
-- org_tree_changed on the same changes); the access worked out on a tree is dropped with the tree
-- (auth/authorizer.ts), the rest is kept.
DROP TRIGGER IF EXISTS access_changed ON public.organizations;
