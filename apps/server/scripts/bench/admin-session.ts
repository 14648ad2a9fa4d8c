import type { FastifyInstance } from 'fastify'

/**
 * Signs in as the seeded administrator through the app itself and answers the session token; with
 * `warm`, one first call is made too, so the app's own first-request costs (the session, the access
 * answer) stay out of every figure measured after it.
 */
export async function adminToken(app: FastifyInstance, password: string, warm = false): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { nickName: 'admin', password },
  })
  const token = login.json().data.token as string
  if (warm) await app.inject({ method: 'GET', url: '/api/user/current', headers: { 'x-auth-token': token } })
  return token
}
