/**
 * Positions (a job title in a department), one question per file:
 * lists.ts — the position list, its export's departments, the pickers' simple list;
 * org-positions.ts — one department's positions; changes.ts — create, delete, enable;
 * links.ts — a position's roles and holders; holders.ts — the holders' scope check;
 * org-paths.ts — the department tree the lists are ordered by.
 */
export { listPositions, listedOrgs, positionNameList, type PositionCaches } from './lists'
export { listForOrg } from './org-positions'
export { batchInsert, deletePositions, setPositionEnabled } from './changes'
export { linkRoles, linkUsers, positionRoleList, positionUserList, unlinkRoles, unlinkUsers } from './links'
