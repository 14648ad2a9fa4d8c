/**
 * Where signing in leads: the console page a signed-out visitor asked for (a deep link, or the page a
 * 401 ended), carried in the router's history state, never in the address, so no link can send a
 * user elsewhere. Anything but an in-console path (an absolute address, '//host', '/' itself) leads
 * to the welcome page.
 */
export const WELCOME_PATH = '/body'

export interface ReturnState {
  from: string
}

export function returnPath(state: unknown): string {
  const from = (state as Partial<ReturnState> | null)?.from
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\'))
    return WELCOME_PATH
  if (from === '/' || from.startsWith('/?')) return WELCOME_PATH
  return from
}
