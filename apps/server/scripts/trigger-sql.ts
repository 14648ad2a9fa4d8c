/**
 * Prints the triggers a table of the table registry (src/db/tables.ts) carries, ready for a custom
 * migration (`drizzle-kit generate --custom`) that adds the table:
 *
 *   npm run db:triggers -w apps/server -- <table>
 */
import { triggerStatements } from '../src/db/table-triggers'

const table = process.argv[2]
if (!table) {
  console.error('usage: npm run db:triggers -w apps/server -- <table>')
  process.exit(2)
}
console.log(`${triggerStatements(table).join(';--> statement-breakpoint\n')};`)
