import { MSG, NAME_LABELS, checkMobile, checkName, checkOrgName, checkPassword } from '@amg/contract'
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
/**
 * A name (DESIGN.md §11): the contract's rule refuses invisible, format and look-alike characters
 * with the server's message; the server stores the name NFKC-normalised.
 */
const name = (label: string, trigger?: Rule['trigger']): Rule => ({
  validator: (value) => checkName(value, label),
  ...(trigger ? { trigger } : {}),
})
const requiredName = (message: string, label: string, trigger?: Rule['trigger']): Rule[] => [
  ...requiredText(message, trigger),
  name(label, trigger),
]

export const rules = {
  // permission form
  authType: required(MSG.authTypeRequired),
  authStatus: required(MSG.statusRequired),
  enName: requiredName(MSG.enNameRequired, NAME_LABELS.enName),
  chName: requiredName(MSG.chNameRequired, NAME_LABELS.chName),
  seq: required(MSG.seqRequired),
  urlPatternInfos: required(MSG.urlPatternsRequired),
  // role form (checked on blur)
  roleName: requiredName(MSG.roleNameRequired, NAME_LABELS.roleName, 'blur'),
  roleType: required(MSG.roleTypeRequired, 'blur'),
  roleStatus: required(MSG.statusRequired, 'blur'),
  // user group
  groupName: requiredName(MSG.groupNameRequired, NAME_LABELS.groupName),
  groupStatus: required(MSG.statusRequired),
  // user base info
  nickName: requiredName(MSG.nickNameRequired, NAME_LABELS.nickName),
  realName: [name(NAME_LABELS.realName)] as Rule[],
  userStatus: required(MSG.statusRequired),
  mobile: [{ validator: (value) => checkMobile(value) }] as Rule[],
  password: [{ validator: (value) => checkPassword(value) }] as Rule[],
  // department
  orgName: [
    { required: true, whitespace: true, message: MSG.orgNameRequired },
    { validator: (value) => checkOrgName(value) },
    name(NAME_LABELS.organizationName),
  ] as Rule[],
  // station
  stationName: requiredName(MSG.stationNameRequired, NAME_LABELS.stationName),
  stationType: required(MSG.stationTypeRequired),
  // service (DESIGN.md §10a); the key's own rule is checkServiceKey
  serviceName: requiredName(MSG.serviceNameRequired, NAME_LABELS.serviceName),
  // any enabled/disabled status
  status: required(MSG.statusRequired),
} satisfies Record<string, Rule[]>

export type RuleSetName = keyof typeof rules
