import { Envelope, NullData } from '../schemas/common'
import { ChangePasswordBody, CurrentUser, LoginBody, LoginResult } from '../schemas/session'
import { MfaLoginBody } from '../schemas/mfa'
import { bindSchemas } from './route'
import { sessionRoutes } from './session'

export const sessionSchemas = {
  login: { security: [], body: LoginBody, response: { 200: Envelope(LoginResult) } },
  loginMfa: { security: [], body: MfaLoginBody, response: { 200: Envelope(LoginResult) } },
  logout: { response: { 200: NullData } },
  current: { response: { 200: Envelope(CurrentUser) } },
  changePassword: { body: ChangePasswordBody, response: { 200: NullData } },
}

export const sessionApi = bindSchemas(sessionRoutes, sessionSchemas)
