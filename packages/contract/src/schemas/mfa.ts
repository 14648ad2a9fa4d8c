import { Type, type Static } from '@sinclair/typebox'
import { SIGN_IN_MSG } from '../messages'
import { Id, withMessage } from './common'

/** Two-step sign-in (DESIGN.md §14): TOTP enrolment, recovery codes, the second step. */

/** A 6-digit TOTP code (spaces the user typed are removed by the server before the check). */
const Code = withMessage(Type.String({ minLength: 6, maxLength: 16 }), SIGN_IN_MSG.mfaCodeWrong)

export const MfaSetup = Type.Object({
  otpauthUri: Type.String({ description: 'otpauth://totp/… for the QR code the console draws' }),
  secret: Type.String({ description: 'the base32 key, for typing in by hand' }),
})
export type MfaSetup = Static<typeof MfaSetup>

export const MfaEnableBody = Type.Object({ code: Code })
export type MfaEnableBody = Static<typeof MfaEnableBody>

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'ten codes, each usable once, shown once' }),
})
export type RecoveryCodes = Static<typeof RecoveryCodes>

export const MfaDisableBody = Type.Object({
  password: withMessage(Type.String({ minLength: 1, maxLength: 128 }), '请输入密码'),
  code: Code,
})
export type MfaDisableBody = Static<typeof MfaDisableBody>

export const MfaResetQuery = Type.Object({ userId: withMessage(Id, '请选择用户') })
export type MfaResetQuery = Static<typeof MfaResetQuery>

export const MfaLoginBody = Type.Object({
  mfaToken: withMessage(Type.String({ minLength: 1, maxLength: 128 }), SIGN_IN_MSG.mfaTokenInvalid),
  code: Type.Optional(Type.String({ maxLength: 16 })),
  recoveryCode: Type.Optional(Type.String({ maxLength: 32 })),
})
export type MfaLoginBody = Static<typeof MfaLoginBody>
