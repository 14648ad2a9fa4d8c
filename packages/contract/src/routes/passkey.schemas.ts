import { EmptyBody, Envelope, NullData } from '../schemas/common'
import { LoginResult } from '../schemas/session'
import {
  PasskeyDeleteQuery,
  PasskeyId,
  PasskeyList,
  PasskeyLoginBody,
  PasskeyLoginOptions,
  PasskeyLoginOptionsBody,
  PasskeyOptions,
  PasskeyOwnerBody,
  PasskeyRegisterBody,
  PasskeyRenameBody,
} from '../schemas/passkey'
import { bindSchemas } from './route'
import { passkeyRoutes } from './passkey'

export const passkeySchemas = {
  registerOptions: { body: EmptyBody, response: { 200: Envelope(PasskeyOptions) } },
  registerVerify: { body: PasskeyRegisterBody, response: { 200: Envelope(PasskeyId) } },
  list: { body: PasskeyOwnerBody, response: { 200: Envelope(PasskeyList) } },
  update: { body: PasskeyRenameBody, response: { 200: NullData } },
  delete: { querystring: PasskeyDeleteQuery, response: { 200: NullData } },
  loginOptions: {
    security: [],
    body: PasskeyLoginOptionsBody,
    response: { 200: Envelope(PasskeyLoginOptions) },
  },
  loginVerify: { security: [], body: PasskeyLoginBody, response: { 200: Envelope(LoginResult) } },
}

export const passkeyApi = bindSchemas(passkeyRoutes, passkeySchemas)
