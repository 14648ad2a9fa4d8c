/**
 * The permission tree (SPEC.md §7 "Auth"), one question per file: tree.ts — reading it;
 * changes.ts — creating, changing, deleting a node; form.ts — a node's form as stored;
 * messages.ts — the refusals.
 */
export { authDetail, authTree, markTreeGrantable, storedNodesIn, subtreeCodes } from './tree'
export { deleteAuth, insertAuth, updateAuth, type NodeEditor } from './changes'
export * from './messages'
