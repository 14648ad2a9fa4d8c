import { routes } from '@amg/contract'
import { writeToken } from './token'
import { useSession } from './session-store'

/**
 * The browser's side of passkeys (DESIGN.md §23): the WebAuthn ceremonies through
 * @simplewebauthn/browser, loaded only when a passkey is used (not in the sign-in page's first
 * download), and the calls that hand out and check the challenges.
 */
const webauthn = () => import('@simplewebauthn/browser')
const calls = () => import('./route-call')

export const PASSKEY_UNSUPPORTED = '当前浏览器或访问地址不支持通行密钥，请通过域名（试用时为 localhost）访问'
export const PASSKEY_FAILED = '通行密钥操作未完成'

/** The browser's own refusal of a ceremony (not the server's: the HTTP layer told that one). */
export class PasskeyBrowserError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

/** What to tell of the browser's refusal: an address the browser will not use as a relying party, or a plain failure. */
export const browserProblem = (err: unknown) =>
  err instanceof Error && (err.name === 'SecurityError' || /rp ?id|relying party|domain/i.test(err.message))
    ? PASSKEY_UNSUPPORTED
    : PASSKEY_FAILED

/** Runs a browser ceremony, its refusals marked as the browser's. */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    throw new PasskeyBrowserError(err)
  }
}

/** Whether this browser can use passkeys at all (a page reached by an IP address still cannot). */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

/** A ceremony the user cancelled or the browser aborted (a newer ceremony started): nothing to tell. */
export const cancelled = (err: unknown) =>
  err instanceof Error &&
  (err.name === 'NotAllowedError' || err.name === 'AbortError' || /abort|cancel/i.test(err.message))

/**
 * Signs in with a passkey: alone (the button, or `autofill` — the name box's suggestions, conditional
 * UI), or as the second step of a password sign-in (`mfaToken`). The session is kept as /login's is.
 */
export async function signInWithPasskey(opts: { mfaToken?: string; autofill?: boolean } = {}) {
  const { request } = await calls()
  const mfaToken = opts.mfaToken
  const { challengeId, response } = await passkeyAssertion(opts)
  const result = await request(
    routes.passkey.loginVerify,
    { body: { challengeId, response: response as never, ...(mfaToken ? { mfaToken } : {}) } },
    { authRequest: true },
  )
  const token = result.token ?? null
  writeToken(token)
  useSession.setState({ token, user: null, auths: [], signedOut: false })
}

/**
 * A passkey's answer to a fresh sign-in challenge, for whichever call checks it (the console's
 * /login/passkey/verify, or the single sign-on login screen's own).
 */
export async function passkeyAssertion(opts: { mfaToken?: string; autofill?: boolean } = {}) {
  const [{ request }, { startAuthentication }] = await Promise.all([calls(), webauthn()])
  const mfaToken = opts.mfaToken
  const { challengeId, options } = await request(
    routes.passkey.loginOptions,
    { body: mfaToken ? { mfaToken } : {} },
    { authRequest: true },
  )
  const response = await ceremony(() =>
    startAuthentication({ optionsJSON: options as never, useBrowserAutofill: !!opts.autofill }),
  )
  return { challengeId, response }
}

/** Whether the browser offers passkeys in the name box's suggestions (conditional UI). */
export async function autofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false
  const { browserSupportsWebAuthnAutofill } = await webauthn()
  return browserSupportsWebAuthnAutofill()
}

/** Registers a passkey of this device for the signed-in user under `name`; answers its id. */
export async function registerPasskey(name: string): Promise<number> {
  const [{ request }, { startRegistration }] = await Promise.all([calls(), webauthn()])
  const options = await request(routes.passkey.registerOptions, { body: {} })
  const response = await ceremony(() => startRegistration({ optionsJSON: options as never }))
  const { id } = await request(routes.passkey.registerVerify, { body: { response: response as never, name } })
  return id
}
