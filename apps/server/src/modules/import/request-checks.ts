import type { TSchema } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { findUnsafeInput, unsafeInputMessage } from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { validationMessage } from '../../lib/error-handler'
import { nameFields, normalizeFields } from '../../lib/name-guard'

/** A schema's validator, compiled by the server's own validator compiler (its options and keywords). */
export type CompileBody = (schema: TSchema) => ((body: unknown) => boolean) & { errors?: unknown }

/** The server's validator compiler, as the request that starts a job reaches it. */
export const compilerOf =
  (req: FastifyRequest): CompileBody =>
  (schema) =>
    req.compileValidationSchema(schema as never) as never

/**
 * A spreadsheet row passes the checks a request body passes before its handler runs (DESIGN.md §15:
 * the same rules and messages as the single calls): unsafe input (lib/input-guard.ts), names
 * normalised and checked (lib/name-guard.ts), then the route's own schema, its first failure told as
 * the error handler tells it.
 */
export function checkAsBody<T>(compile: CompileBody, schema: TSchema, body: Record<string, unknown>): T {
  const unsafe = findUnsafeInput(body)
  if (unsafe) throw badRequest(unsafeInputMessage(unsafe))
  normalizeFields(body, nameFields(schema))
  const validate = compile(schema)
  if (!validate(body)) throw badRequest(validationMessage((validate.errors ?? []) as never, 'body'))
  return body as T
}
