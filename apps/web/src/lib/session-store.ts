import { create } from 'zustand'
import { sessionRoutes, systemRoutes, type CurrentUser } from '@amg/contract'
import { readToken, writeToken } from './token'
import { onUnauthorized } from './unauthorized'

// The HTTP client is not needed to show the sign-in page: it loads with the first call (or before,
// with the screens fetched in the background) instead of with the first download (DESIGN.md §12).
// Once loaded it is kept, so that a call does not wait for the module loader again.
let callModule: typeof import('./route-call') | undefined
const calls = async () => (callModule ??= await import('./route-call'))

/** Loads the HTTP client ahead of the first call (the sign-in page does while the user types). */
export const preloadHttp = () => void calls().catch(() => undefined)

export type Device = 'desktop' | 'mobile'
export const MOBILE_MAX_WIDTH = 768

export const deviceFor = (width: number): Device => (width < MOBILE_MAX_WIDTH ? 'mobile' : 'desktop')

/** Session state (SPEC.md §3): token, user-auth flag, user info, auths, device, isAms and runtime flags. */
export interface SessionState {
  token: string | null
  /** When false the menu and tabs are not filtered by `auths` (SPEC.md §5). */
  userAuth: boolean
  user: CurrentUser | null
  /** Front-end path patterns the menu and user tabs are filtered by. */
  auths: string[]
  device: Device
  isAms: boolean
  showOperatorUser: boolean
  hideUserBaseInfo: boolean
  /** True after 退出登录: the next sign-in starts at the welcome page, not where the user left. */
  signedOut: boolean

  /** Signs in; with two-step sign-in on, answers the second step's token instead (DESIGN.md §14). */
  login(nickName: string, password: string): Promise<{ mfaToken?: string; methods?: ('totp' | 'passkey')[] }>
  /** The second step: a TOTP code or a recovery code. */
  loginMfa(mfaToken: string, proof: { code?: string; recoveryCode?: string }): Promise<void>
  loadCurrentUser(): Promise<CurrentUser>
  loadConfig(): Promise<void>
  /** Signs out on the server (best effort) and clears the local session. */
  logout(): Promise<void>
  /** Clears the local session only (after a 401). */
  clear(): void
  setDevice(device: Device): void
}

/** Super admins pass every check on the server, so every console path is theirs too. */
export function authsOf(user: CurrentUser): string[] {
  return user.superAdmin ? ['/**', ...user.auths] : [...user.auths]
}

const initialDevice = (): Device => (typeof window === 'undefined' ? 'desktop' : deviceFor(window.innerWidth))

export const useSession = create<SessionState>()((set) => ({
  token: readToken(),
  userAuth: true,
  user: null,
  auths: [],
  device: initialDevice(),
  isAms: false,
  showOperatorUser: false,
  hideUserBaseInfo: false,
  signedOut: false,

  async login(nickName, password) {
    const { request } = await calls()
    const result = await request(sessionRoutes.login, { body: { nickName, password } }, { authRequest: true })
    if (result.mfaRequired && result.mfaToken) return { mfaToken: result.mfaToken, methods: result.methods }
    const token = result.token ?? null
    writeToken(token)
    set({ token, user: null, auths: [], signedOut: false })
    return {}
  },

  async loginMfa(mfaToken, proof) {
    const { request } = await calls()
    const result = await request(
      sessionRoutes.loginMfa,
      { body: { mfaToken, ...proof } },
      { authRequest: true },
    )
    const token = result.token ?? null
    writeToken(token)
    set({ token, user: null, auths: [], signedOut: false })
  },

  async loadCurrentUser() {
    const { request } = await calls()
    const user = await request(sessionRoutes.current, {})
    set({ user, auths: authsOf(user) })
    return user
  },

  async loadConfig() {
    const { request } = await calls()
    const config = await request(systemRoutes.config, {}, { silent: true })
    set({
      isAms: config.isAms,
      showOperatorUser: config.showOperatorUser,
      hideUserBaseInfo: config.hideUserBaseInfo,
    })
  },

  async logout() {
    try {
      const { request } = await calls()
      await request(sessionRoutes.logout, {}, { silent: true, signingOut: true })
    } catch {
      // the local session ends anyway
    }
    writeToken(null)
    set({ token: null, user: null, auths: [], signedOut: true })
  },

  clear() {
    writeToken(null)
    set({ token: null, user: null, auths: [] })
  },

  setDevice(device) {
    set({ device })
  },
}))

// SPEC.md §4: a 401 answer dispatches logout.
onUnauthorized(() => useSession.getState().clear())
