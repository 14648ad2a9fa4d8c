import { MSG, checkMobile, checkOrgName, checkPassword } from '@amg/contract'
import type { Rule } from './rules'

/**
 * Ready rule sets of SPEC.md §5, built from packages/contract: the same messages and predicates
 * the server checks with.
 */
const required = (message: string, trigger?: Rule['trigger']): Rule[] => [
  { required: true, message, ...(trigger ? { trigger } : {}) },
]
const requiredText = (message: string, trigger?: Rule['trigger']): Rule[] => [
  { required: true, whitespace: true, message, ...(trigger ? { trigger } : {}) },
]

export const rules = {
  // permission form
  authType: required(MSG.authTypeRequired),
  authStatus: required(MSG.statusRequired),
  enName: requiredText(MSG.enNameRequired),
  chName: requiredText(MSG.chNameRequired),
  seq: required(MSG.seqRequired),
  urlPatternInfos: required(MSG.urlPatternsRequired),
  // role form (checked on blur)
  roleName: requiredText(MSG.roleNameRequired, 'blur'),
  roleType: required(MSG.roleTypeRequired, 'blur'),
  roleStatus: required(MSG.statusRequired, 'blur'),
  // user group
  groupName: requiredText(MSG.groupNameRequired),
  groupStatus: required(MSG.statusRequired),
  // user base info
  nickName: requiredText(MSG.nickNameRequired),
  userStatus: required(MSG.statusRequired),
  mobile: [{ validator: (value) => checkMobile(value) }] as Rule[],
  password: [{ validator: (value) => checkPassword(value) }] as Rule[],
  // department
  orgName: [
    { required: true, whitespace: true, message: MSG.orgNameRequired },
    { validator: (value) => checkOrgName(value) },
  ] as Rule[],
  // station
  stationName: requiredText(MSG.stationNameRequired),
  stationType: required(MSG.stationTypeRequired),
  // any enabled/disabled status
  status: required(MSG.statusRequired),
} satisfies Record<string, Rule[]>

export type RuleSetName = keyof typeof rules
