/** The departments module's functions for other modules (import, tests): reads, writes and messages. */
export { ORG_MSG } from './messages'
export { orgTree, scopedTree } from './tree'
export { orgDetail } from './detail'
export { insertOrg, updateOrg, deleteOrg } from './writes'
