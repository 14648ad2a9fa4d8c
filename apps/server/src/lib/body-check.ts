import { AjvCompiler } from '@fastify/ajv-compiler'
import type { TSchema } from '@sinclair/typebox'
import { MESSAGE_KEYWORD, NAME_KEYWORD, NAME_SEARCH_KEYWORD } from '@amg/contract'
import { badRequest } from './errors'
import { validationMessage } from './error-handler'
import { nameFields, normalizeFields } from './name-guard'

/**
 * A body checked against a route's schema of the contract by a caller that is not that route: SCIM
 * (modules/scim) turns its resources into the bodies of the console's calls and runs the same checks
 * on them, names normalised and refused as the name guard does, with the same Chinese messages.
 */

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null }

const compileWith = AjvCompiler()(
  {},
  {
    customOptions: {
      verbose: true,
      keywords: [MESSAGE_KEYWORD, NAME_KEYWORD, NAME_SEARCH_KEYWORD],
      coerceTypes: true,
    },
  },
) as unknown as (route: { schema: TSchema; method: string; url: string; httpPart: string }) => Validate

const compiled = new WeakMap<TSchema, Validate>()

/** `body` as the route's schema takes it (names normalised in place), or 400 with the field's message. */
export function checkBody<T>(schema: TSchema, body: T): T {
  normalizeFields(body, nameFields(schema))
  let validate = compiled.get(schema)
  if (!validate) {
    validate = compileWith({ schema, method: 'POST', url: '/', httpPart: 'body' })
    compiled.set(schema, validate)
  }
  if (!validate(body))
    throw badRequest(
      validationMessage((validate.errors ?? []) as Parameters<typeof validationMessage>[0], 'body'),
    )
  return body
}
