import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { NAME_SEARCH_KEYWORD } from '../names'
import { RequiredText } from './common'
import { UrlPatternInfo } from './permission'

/** The typed name is normalised like a stored one (names.ts): `ａｄｍｉｎ` signs in as `admin`. */
export const LoginBody = Type.Object({
  nickName: { ...RequiredText(MSG.nickNameRequired, 64), [NAME_SEARCH_KEYWORD]: true },
  password: Type.String({ minLength: 1, maxLength: 128, [`x-message`]: '请输入密码' }),
})
export type LoginBody = Static<typeof LoginBody>

export const SessionUser = Type.Object({
  id: Type.Integer(),
  nickName: Type.String(),
  realName: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer({ description: '1 正常, 2 冻结' }),
})

/** Why a session may do nothing but finish signing in (DESIGN.md §14). */
export const Restriction = Type.Union([
  Type.Literal('password_change'),
  Type.Literal('mfa_enroll'),
  // DESIGN.md §23: an administrator under `mfa: admins-passkey` with no passkey yet
  Type.Literal('passkey_enroll'),
])
export type Restriction = Static<typeof Restriction>

/**
 * A session (token, user, and a restriction when the password must change or MFA be enrolled
 * first), or, with MFA on, the second step's token instead.
 */
export const LoginResult = Type.Object({
  token: Type.Optional(Type.String()),
  user: Type.Optional(SessionUser),
  restricted: Type.Optional(Restriction),
  mfaRequired: Type.Optional(Type.Boolean()),
  mfaToken: Type.Optional(Type.String({ description: 'for POST /login/mfa: 5 minutes, 5 tries' })),
  methods: Type.Optional(
    Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('passkey')]), {
      description: 'the second steps this user may take (DESIGN.md §23: a passkey where TOTP is asked)',
    }),
  ),
})
export type LoginResult = Static<typeof LoginResult>

export const CurrentUser = Type.Object({
  id: Type.Integer(),
  nickName: Type.String(),
  realName: Type.Union([Type.String(), Type.Null()]),
  status: Type.Integer({ description: '1 正常, 2 冻结' }),
  roles: Type.Array(Type.Object({ id: Type.Integer(), roleName: Type.String(), type: Type.Integer() })),
  auths: Type.Array(Type.String(), {
    description: 'front-end path patterns the menu and tabs are filtered by',
  }),
  authCodes: Type.Array(Type.String()),
  calls: Type.Array(UrlPatternInfo, {
    description:
      "the user's back-end patterns of this API: the console shows an action only when one matches its call",
  }),
  superAdmin: Type.Boolean(),
  manageScope: Type.Union(
    [
      Type.Null(),
      Type.Object({
        self: Type.Boolean({ description: "the scope holds the user's own records" }),
        roots: Type.Array(
          Type.Object({ id: Type.Integer(), name: Type.String(), withSubtree: Type.Boolean() }),
          { description: 'the top departments of the scope; withSubtree: everything below is in it too' },
        ),
      }),
    ],
    {
      description:
        'DESIGN.md §13: the reach of the user list call (管理范围) for a scoped administrator; null when the user may not list users or reaches all data',
    },
  ),
  passwordIsInitial: Type.Boolean({
    description: 'true while the password is still the configured initial one',
  }),
  restricted: Type.Optional(Restriction),
  mfaEnabled: Type.Optional(Type.Boolean()),
})
export type CurrentUser = Static<typeof CurrentUser>

export const ChangePasswordBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 128, 'x-message': '请输入原密码' }),
  newPassword: Type.String({ minLength: 1, maxLength: 128, 'x-message': MSG.passwordPolicy }),
})
export type ChangePasswordBody = Static<typeof ChangePasswordBody>

export const ConsoleConfig = Type.Object({
  showOperatorUser: Type.Boolean(),
  isAms: Type.Boolean(),
  hideUserBaseInfo: Type.Boolean(),
  uploadMaxSizeMb: Type.Number(),
})
export type ConsoleConfig = Static<typeof ConsoleConfig>

export const Health = Type.Object({ status: Type.String(), database: Type.String() })
