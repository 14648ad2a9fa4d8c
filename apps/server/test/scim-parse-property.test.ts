import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { PgDialect } from 'drizzle-orm/pg-core'
import { users } from '../src/db/schema'
import { parseFilter } from '../src/modules/scim/filter'
import { filterSql } from '../src/modules/scim/filter-sql'
import { applyPatch, readPatch, PATCH_SCHEMA } from '../src/modules/scim/patch'
import { ScimError } from '../src/modules/scim/errors'

/**
 * No input reaches a 500 through SCIM's filters and PATCH bodies: whatever a client sends is either
 * read, or refused with a SCIM error of status 400 (DESIGN.md §8, §22). Values never enter the SQL
 * text: they travel as parameters.
 */

const COLUMNS = {
  username: { column: users.nickName, caseExact: false },
  externalid: { column: users.externalId, caseExact: true },
  id: { column: users.id, caseExact: true, numeric: true },
}

const token = fc.oneof(
  fc.constantFrom(
    'userName',
    'externalId',
    'id',
    'displayName',
    'emails',
    'eq',
    'ne',
    'co',
    'sw',
    'pr',
    'gt',
    'and',
    'or',
    'not',
    '(',
    ')',
    '[',
    ']',
    '"',
    'true',
    '12',
    'null',
    'EQ',
    'Or',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
)
const filterText = fc.array(token, { maxLength: 12 }).map((parts) => parts.join(' '))

const readOrRefuse = (work: () => unknown) => {
  try {
    work()
  } catch (err) {
    expect(err).toBeInstanceOf(ScimError)
    expect((err as ScimError).status).toBe(400)
  }
}

describe('SCIM parsing never fails but with a SCIM 400', () => {
  it('filters: parsed and turned into SQL whose text holds none of the values', () => {
    const dialect = new PgDialect()
    fc.assert(
      fc.property(filterText, (text) =>
        readOrRefuse(() => {
          const query = dialect.sqlToQuery(filterSql(parseFilter(text), COLUMNS))
          for (const p of query.params)
            if (typeof p === 'string' && p.length > 3) expect(query.sql).not.toContain(p)
        }),
      ),
      { numRuns: 2000 },
    )
  })

  it('PATCH bodies: any operations on any resource are applied or refused', () => {
    const op = fc.record({
      op: fc.constantFrom('add', 'Replace', 'REMOVE', 'move', 'x'),
      path: fc.option(
        fc.oneof(
          filterText,
          fc.constantFrom(
            'members',
            'active',
            'name.givenName',
            'members[value eq "1"]',
            'emails[type eq "work"].value',
            'id',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          ),
        ),
        { nil: undefined },
      ),
      value: fc.jsonValue({ maxDepth: 2 }),
    })
    const resource = {
      schemas: ['x'],
      id: '1',
      userName: 'a',
      members: [{ value: '1' }, { value: '2' }],
      name: { formatted: 'n' },
    }
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 4 }), (ops) =>
        readOrRefuse(() => applyPatch(resource, readPatch({ schemas: [PATCH_SCHEMA], Operations: ops }))),
      ),
      { numRuns: 2000 },
    )
  })
})
