import { EmptyBody, Envelope, NullData } from '../schemas/common'
import { MfaDisableBody, MfaEnableBody, MfaResetQuery, MfaSetup, RecoveryCodes } from '../schemas/mfa'
import { bindSchemas } from './route'
import { mfaRoutes } from './mfa'

export const mfaSchemas = {
  setup: { body: EmptyBody, response: { 200: Envelope(MfaSetup) } },
  enable: { body: MfaEnableBody, response: { 200: Envelope(RecoveryCodes) } },
  disable: { body: MfaDisableBody, response: { 200: NullData } },
  reset: { querystring: MfaResetQuery, response: { 200: NullData } },
}

export const mfaApi = bindSchemas(mfaRoutes, mfaSchemas)
