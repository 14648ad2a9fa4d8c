/** What the import module takes from positions; everything else is reached through ./index. */
export { batchInsert } from './changes'
export { listedOrgs } from './lists'
