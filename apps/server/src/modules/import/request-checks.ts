import type { TSchema } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { findUnsafeInput, unsafeInputMessage } from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { validationMessage } from '../../lib/error-handler'
import { nameFields, normalizeFields } from '../../lib/name-guard'

/** A schema's validator, compiled by the server's own validator compiler (its options and keywords). */
export type CompileBody = (schema: TSchema) => ((body: unknown) => boolean) & { errors?: unknown }

/**
 * The server's own validator compiler (its ajv options and keywords), each schema compiled once per
 * job. Not the request's `compileValidationSchema`: that one takes the import route's compiler, which
 * accepts any multipart body unchecked, so no row's schema would ever be checked.
 */
export function compilerOf(req: FastifyRequest): CompileBody {
  const compiler = req.server.validatorCompiler
  if (!compiler) throw new Error('the validator compiler is not ready')
  const compiled = new Map<TSchema, ReturnType<CompileBody>>()
  return (schema) => {
    let validate = compiled.get(schema)
    if (!validate) {
      validate = compiler({ schema, method: 'POST', url: req.url, httpPart: 'body' }) as never
      compiled.set(schema, validate!)
    }
    return validate!
  }
}

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
