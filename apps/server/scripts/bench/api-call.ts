/** One call of the access server's API over HTTP as an administrator would make it; throws unless it succeeded. */
export async function apiCall<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify(body),
  })
  const answer = (await res.json()) as { code: number; msg: string; data: T }
  if (res.status !== 200 || answer.code !== 200)
    throw new Error(`${method} ${path}: ${res.status === 200 ? answer.code : res.status} ${answer.msg}`)
  return answer.data
}
