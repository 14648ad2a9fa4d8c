import { Type, type Static } from '@sinclair/typebox'
import { PASSKEY_MSG } from '../messages'
import { Id, withMessage } from './common'

/** Passkeys (DESIGN.md §23): WebAuthn credentials, registered and used through @simplewebauthn. */

const Name = withMessage(Type.String({ minLength: 1, maxLength: 64 }), PASSKEY_MSG.nameRequired)
/** The browser's credential as @simplewebauthn/browser answers it; the verifier checks every part. */
const WebAuthnResponse = withMessage(
  Type.Object(
    {
      id: Type.String({ minLength: 1, maxLength: 1024 }),
      rawId: Type.String({ maxLength: 1024 }),
      type: Type.String({ maxLength: 32 }),
      response: Type.Record(Type.String(), Type.Unknown()),
    },
    { additionalProperties: true },
  ),
  PASSKEY_MSG.responseRequired,
)

export const PasskeyOwnerBody = Type.Object({
  userId: Type.Optional(withMessage(Id, '请选择用户')),
})
export type PasskeyOwnerBody = Static<typeof PasskeyOwnerBody>

export const PasskeyOptions = Type.Record(Type.String(), Type.Unknown(), {
  description: 'PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON for @simplewebauthn/browser',
})

export const PasskeyRegisterBody = Type.Object({ response: WebAuthnResponse, name: Name })
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>

export const PasskeyId = Type.Object({ id: Type.Integer() })

export const PasskeyItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createTime: Type.String({ format: 'date-time' }),
  lastUsedTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})
export type PasskeyItem = Static<typeof PasskeyItem>
export const PasskeyList = Type.Object({ list: Type.Array(PasskeyItem) })

export const PasskeyDeleteQuery = Type.Object({
  id: withMessage(Id, PASSKEY_MSG.idRequired),
  userId: Type.Optional(withMessage(Id, '请选择用户')),
})
export type PasskeyDeleteQuery = Static<typeof PasskeyDeleteQuery>

export const PasskeyRenameBody = Type.Object({
  id: withMessage(Id, PASSKEY_MSG.idRequired),
  name: Name,
  userId: Type.Optional(withMessage(Id, '请选择用户')),
})
export type PasskeyRenameBody = Static<typeof PasskeyRenameBody>

export const PasskeyLoginOptionsBody = Type.Object({
  mfaToken: Type.Optional(Type.String({ maxLength: 128 })),
})
export const PasskeyLoginOptions = Type.Object({ challengeId: Type.String(), options: PasskeyOptions })

export const PasskeyLoginBody = Type.Object({
  challengeId: withMessage(Type.String({ minLength: 1, maxLength: 128 }), PASSKEY_MSG.challengeInvalid),
  response: WebAuthnResponse,
  mfaToken: Type.Optional(Type.String({ maxLength: 128 })),
})
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>
