/**
 * How sign-in asks the directory about a directory user's password (DESIGN.md §22). Sign-in only
 * knows this shape; the LDAP module gives the implementation when the app is built, so auth/ does
 * not import a module.
 */
export type DirectoryBind = (
  user: { nickName: string; externalId: string | null },
  password: string,
) => Promise<boolean>
