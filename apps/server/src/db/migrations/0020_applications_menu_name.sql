-- Services (DESIGN.md §10a) are the applications of single sign-on (§16): the page node is called
-- 应用管理 now. A new database gets the name from the seed; an existing one is renamed here, unless an
-- administrator has already given the node a name of their own.
UPDATE "auths" SET "ch_name" = '应用管理' WHERE "code" = 'service' AND "ch_name" = '服务管理';
