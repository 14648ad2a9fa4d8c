import type { TestApp } from './app'

/** Calls to /scim/v2 as a SCIM client makes them: a bearer API key, application/scim+json. */

export interface ScimAnswer {
  status: number
  body: any
  headers: Record<string, string | string[] | number | undefined>
}

/** An API key of this user, made by the seeded admin through the console's call. */
export async function apiKeyOf(t: TestApp, userId: number): Promise<string> {
  const made = await t.call('POST', '/api/apikey/insert', {
    token: t.adminToken,
    body: { userId, name: `scim-${userId}-${Date.now()}` },
  })
  if (made.status !== 200) throw new Error(`api key not made: ${made.body.msg}`)
  return (made.body.data as { key: string }).key
}

export function scimClient(t: TestApp, key: string | null) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ScimAnswer> => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/scim/v2${path}`,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    })
    let parsed: unknown = null
    try {
      parsed = res.body ? res.json() : null
    } catch {
      parsed = res.body
    }
    return { status: res.statusCode, body: parsed, headers: res.headers }
  }
}

export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'

export const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations })
