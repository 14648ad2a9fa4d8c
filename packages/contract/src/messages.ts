/** Every user-facing message with a fixed text. SPEC.md's texts are copied character for character. */
export const MSG = {
  // SPEC.md §5 — permission form
  authTypeRequired: '必须选择权限类型',
  statusRequired: '必须选择启用状态',
  enNameRequired: '请输入英文名',
  chNameRequired: '请输入中文名',
  seqRequired: '请输入排序号',
  urlPatternsRequired: '请配置后端接口',
  // role form
  roleNameRequired: '必须输入角色名称',
  roleTypeRequired: '必须选择角色类型',
  // user group
  groupNameRequired: '必须输入用户组名称',
  // user base info
  nickNameRequired: '必须输入用户昵称',
  nickNameBlank: '用户昵称为空！',
  mobileInvalid: '请输入正确的手机号',
  passwordPolicy:
    '密码需包含大写字母、小写字母、数字、特殊符号（不是字母，数字，下划线，汉字的字符）且在12位以上',
  // department
  orgNameRequired: '请输入部门名称',
  orgNameNoHyphen: "部门名称不能包含'-'",
  orgTreeParentInvalid: '上级部门ID格式不正确',
  orgTreeRootsInvalid: 'roots 只能为 1',
  orgTreeKeywordInvalid: '部门名称关键字不能为空，且不能超过64个字符',
  orgTreePathToInvalid: '部门ID格式不正确',
  orgTreeOneQuery: 'parentId、roots、keyword、pathTo 只能指定其中一个',
  // station
  stationNameRequired: '必须输入职位名称',
  stationTypeRequired: '必须选择职位类型',
  // SPEC.md §8
  deleteSelf: '不能删除自己！',
  unauthorized: '没有权限，请重新登录',
  uploadUnauthorized: '没有上传权限，是否重新登录',
  uploadFailed: '文件上传失败',
  imageFailed: '加载失败',
  imageLoading: '图片加载中...',
  cancelCreate: '取消新建',
  cancelDelete: '已取消删除',
  success: '操作成功',
  successBang: '操作成功!',
  deleted: '删除成功',
  created: '创建成功',
  updated: '修改成功',
  confirmUnlinkRole: '确定要移除该角色关联吗？',
  confirmUnlinkUser: '确定要移除该用户关联吗？',
  confirmUnlinkStation: '确定要移除职位关联吗？',
  // Server-side texts that SPEC.md leaves open (DESIGN.md §4: Chinese, shown as is)
  loginFailed: '用户昵称或密码错误',
  loginFrozen: '账号已冻结，请联系管理员',
  loginLocked: '登录失败次数过多，账号已锁定，请15分钟后再试',
  sessionInvalid: '登录已失效，请重新登录',
  forbidden: '没有权限执行此操作',
  notFoundApi: '接口不存在',
  serverError: '服务器内部错误，请稍后再试',
  /** the database cannot be reached right now (503, with Retry-After) */
  serviceUnavailable: '服务暂时不可用，请稍后重试',
  /** password hashing is queued beyond its bound (503, with Retry-After) */
  serviceBusy: '服务繁忙，请稍后重试',
  badJson: '请求体不是合法的 JSON',
  badRequest: '请求参数不正确',
  oldPasswordWrong: '原密码不正确',
  /** DESIGN.md §6a: one's own password changes only with the old one (PUT /api/user/password) */
  ownPasswordViaChange: '不能在此修改自己的密码，请使用“修改密码”并输入原密码',
  /** DESIGN.md §13: the user (or one of their departments) lies outside the caller's data scope */
  userOutOfScope: '该用户不在您的管理范围内',
  /** DESIGN.md §13: a position whose department lies outside the caller's data scope */
  positionOutOfScope: '该岗位不在您的管理范围内',
  // DESIGN.md §15: import and export (texts of this product, not of SPEC.md)
  importNoFile: '请选择要导入的文件',
  importModeInvalid: '导入方式只能为 insert 或 upsert',
  importDryRunInvalid: 'dryRun 只能为 true 或 false',
  importAllowSuperAdminInvalid: 'allowSuperAdmin 只能为 true 或 false',
  /** a row whose roles, positions or groups would give 超级管理员, in a job without the option */
  importSuperAdminNotAllowed: '该行会授予超级管理员角色，需勾选“允许导入超级管理员”后再导入',
  importNotWorkbook: '文件不是有效的 Excel 工作簿（.xlsx）或 CSV 文件',
  importEncrypted: '工作簿设有密码保护，请取消密码后再导入',
  importTooLarge: '文件超过 20MB，请分批导入',
  importTooManyRows: '文件超过 200000 行，请分批导入',
  importEmpty: '工作表中没有数据',
  importMergedCells: '工作表中有合并单元格，请取消合并后再导入',
  importBusy: '已有导入正在进行，请稍后再试',
  importJobNotFound: '导入任务不存在或已过期',
  importJobRunning: '导入尚未完成',
  importPositionExists: '该部门已有此职位的岗位',
  importStatusInvalid: '状态只能为“正常”或“冻结”',
  importRowInserted: '新建',
  importRowUpdated: '修改',
  importRowFailed: '失败',
  importRowUnchanged: '未变更',
  /** a row of a batch the database connection was lost under, or after it: never written */
  importRowNotProcessed: '未处理',
  importConnectionLost: '数据库连接中断',
  /** a job ended by a lost database connection (503's message first); what committed stays */
  importInterrupted:
    '服务暂时不可用，请稍后重试：数据库连接中断，导入未完成。已导入的行已保存，其余行未处理；请以“新建或更新”方式重新导入同一文件以完成导入',
  /**
   * DESIGN.md §19: the instance running a job stopped (its lease ran out); what it committed stays, and
   * its result workbook was never written
   */
  importInstanceLost:
    '运行导入的服务实例已停止，导入未完成。已导入的行已保存，其余行未处理，且没有结果文件；请以“新建或更新”方式重新导入同一文件以完成导入',
  /** DESIGN.md §13: a department outside the caller's scope, or one of its roots */
  orgOutOfScope: '该部门不在您的管理范围内',
  /** DESIGN.md §13: a scoped administrator creates a user only into a position within scope */
  positionRequiredInScope: '请选择您管理范围内的岗位',
  payloadTooLarge: '请求内容过大',
  // DESIGN.md §10: the call a check, explain or who-can asks about
  callMethodInvalid: '请求方法不正确',
  callPathSlash: '路径必须以 / 开头',
  // DESIGN.md §10a: a path a service could read as another one is refused, not decided on
  pathTooLong: '路径过长：不含查询串最多 2048 个字符',
  pathFragment: '路径不能包含 #',
  pathEncodedSlash: '路径不能包含反斜杠 \\ 或编码的斜杠（%2F、%5C）',
  pathSemicolon: '路径不能包含分号 ;（含 %3B）',
  pathDotSegment: '路径不能包含 . 或 .. 段（任何写法或编码）',
  pathEmptySegment: '路径不能包含空段（//）',
  pathControlChar: '路径不能包含控制字符（含编码的 %00 等）或未编码的空格',
  pathBadEncoding: '路径的百分号编码不正确：须为 %XX，且解码后是合法的 UTF-8',
  pathDoubleEncoding: '路径不能二次编码（如 %252e）',
  pathLookAlike: '路径不能包含经 Unicode 规范化后会变成 / \\ ; ? # % 或 . 段的字符',
  // DESIGN.md §10a: services, each owning its own permission namespace
  serviceKeyRequired: '请输入服务标识',
  serviceKeyInvalid: '服务标识只能由小写字母、数字和 - 组成，最长 32 个字符',
  serviceNameRequired: '请输入服务名称',
  serviceKeyTaken: '服务标识已存在',
  serviceNotFound: '服务不存在',
  serviceBuiltIn: '内置服务不能删除',
  serviceHasNodes: '该服务下还有权限，请先删除这些权限',
  serviceRootNotFound: '根权限不存在',
  serviceRootNotTop: '服务的根权限必须是顶级权限',
  serviceRootTaken: '该权限已属于其他服务',
  serviceRootFixed: '服务的根权限只能在顶级，不能移动',
  serviceRootDelete: '该权限是服务的根权限，请先删除服务',
  // DESIGN.md §13: a role's data scope
  dataScopeInvalid: '数据权限须为 1 全部数据、2 自定义部门、3 本部门、4 本部门及以下、5 仅本人 之一',
  scopeOrgIdsInvalid: '自定义部门须为部门 id 的列表，最多 1000 个',
  scopeOrgIdsRequired: '数据权限为自定义部门时，请至少选择一个部门',
  // DESIGN.md §16: API keys for services that cannot do OAuth
  apiKeyNameRequired: '请输入密钥名称',
  apiKeyUserRequired: '请选择密钥所属用户',
  apiKeyUserNotFound: '密钥所属用户不存在',
  apiKeyExpiryInvalid: '过期时间格式不正确',
  apiKeyExpiryPast: '过期时间必须晚于当前时间',
  apiKeyNotFound: 'API 密钥不存在',
  apiKeyRevoked: '已吊销',
  // DESIGN.md §16: single sign-on
  oidcInteractionGone: '登录请求已失效，请回到应用重新登录',
  oidcWrongStep: '登录步骤不正确，请回到应用重新登录',
  oidcServiceAccount: '服务账号不能交互式登录',
  // DESIGN.md §11: service accounts are made by turning a machine client on, never by hand, and hold no password
  nickNameReserved: '以 svc- 开头的用户昵称保留给服务账号，请换一个昵称',
  serviceAccountNoPassword: '服务账号没有密码，不能设置或修改密码',
  // a password set by someone else or expired, or two-step sign-in required and not bound: done in the
  // console (its sign-in leads there), then the application's sign-in is started again
  oidcChangePasswordFirst: '您需要先修改密码：请登录本系统修改密码后，回到应用重新登录',
  oidcEnrollMfaFirst: '您需要先绑定两步验证：请登录本系统绑定后，回到应用重新登录',
  oidcTypeInvalid: '应用类型须为 web、spa 或 machine',
  oidcRedirectUriInvalid: '回调地址须为完整的 https 地址（localhost 可用 http），不含 #',
  oidcRedirectUriRequired: '请至少填写一个回调地址',
  oidcNotEnabled: '该服务未开启单点登录',
} as const

/**
 * DESIGN.md §11: turning on a machine client whose service account's name is held by a user that is not
 * a service account (409): the user is never adopted.
 */
export const serviceAccountNameTaken = (nickName: string) =>
  `用户「${nickName}」已存在且不是服务账号，不能用作该机器客户端的服务账号：请先将该用户改名或删除后再开启`

/** DESIGN.md §13: a role's 自定义部门 names a department that does not exist (400, nothing changed). */
export const unknownScopeOrgs = (ids: readonly number[]) => `部门不存在：${ids.join(', ')}`

/**
 * The msg of the operation-log row that stands for a minute of anonymous writes refused with 401 from
 * one source (DESIGN.md §11): the refusal and how many there were.
 */
export const anonymousRefusalsMsg = (msg: string, count: number) => `${msg}（该来源本分钟内共 ${count} 次）`

/**
 * A sign-in refused for a while (429): says how long to wait, as its Retry-After header does —
 * seconds under a minute, else whole minutes rounded up.
 */
export function throttledMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  const wait = seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`
  return `尝试过于频繁，请 ${wait}后再试`
}

/** '上传文件大小不能超过 {maxSize}MB!' (SPEC.md §5). */
export const uploadTooLarge = (maxSizeMb: number) => `上传文件大小不能超过 ${maxSizeMb}MB!`

/** '此操作将永久删除{department-jobtitle}, 是否继续?' (SPEC.md §2, positions). */
export const confirmDeletePosition = (name: string) => `此操作将永久删除${name}, 是否继续?`

/** DESIGN.md §6a: the prefix of every refusal of a change beyond the caller's own power. */
export const BEYOND_POWER_PREFIX = '不能授予或管理超出自己权限的内容：'
/** How many missing permissions a refusal names. */
export const BEYOND_POWER_NAMES = 5
/** What a refusal names when the change reaches a super-admin role (all power). */
export const SUPER_ADMIN_POWER_NAME = '超级管理员'

/** '不能授予或管理超出自己权限的内容：' with up to five names of the permissions the caller lacks. */
export function beyondPowerMessage(missingNames: readonly string[]): string {
  const unique = [...new Set(missingNames)]
  const shown = unique.slice(0, BEYOND_POWER_NAMES).join('、')
  return `${BEYOND_POWER_PREFIX}${shown}${unique.length > BEYOND_POWER_NAMES ? ' 等' : ''}`
}

/** '删除服务「{name}」及其根权限, 是否继续?': the service list's delete confirmation names what goes. */
export const confirmDeleteService = (name: string) => `此操作将永久删除服务「${name}」及其根权限, 是否继续?`

/** The password policy's rules and the security settings' bounds (DESIGN.md §14, password-policy.ts). */
export const POLICY_MSG = {
  tooShort: (n: number) => `密码长度不能少于 ${n} 位`,
  tooLong: '密码长度不能超过 30 位',
  chinese: '密码不能包含汉字',
  classes: (n: number) => `密码需包含大写字母、小写字母、数字、特殊符号中的至少 ${n} 类`,
  containsUsername: '密码不能包含用户名',
  reused: (n: number) => `新密码不能与最近 ${n} 次使用过的密码相同`,
  sameAsOld: '新密码不能与原密码相同',
  outOfRange: (label: string, min: number, max: number) => `${label}应为 ${min} 到 ${max} 之间的整数`,
  mfaInvalid: '两步验证范围应为 off、admins 或 all',
} as const

/** Sign-in security (DESIGN.md §14): restricted sessions and two-step sign-in. */
export const SIGN_IN_MSG = {
  mustChangePassword: '请先修改密码',
  mustEnrollMfa: '请先绑定两步验证',
  passwordExpired: '密码已过期，请修改密码',
  mfaRequired: '请输入两步验证码',
  mfaCodeWrong: '验证码不正确',
  mfaTokenInvalid: '两步验证已超时，请重新登录',
  mfaAlreadyOn: '已绑定两步验证',
  mfaNotOn: '尚未绑定两步验证',
  mfaSetupFirst: '请先获取绑定二维码',
  passwordWrong: '密码不正确',
  recoveryUsed: '已使用恢复码登录',
  mfaReset: '已重置两步验证',
} as const
/** DESIGN.md §15: the first row of an import must be the template's header. */
export const importWrongColumns = (expected: readonly string[]) =>
  `表头与模板不一致，应为：${expected.join('、')}`

/** DESIGN.md §15: a formula or an error value where a value is expected. */
export const importFormulaCell = (address: string) => `单元格 ${address} 含公式或错误值，请改为数值后再导入`

/** DESIGN.md §15: a name used twice in one file, with both spreadsheet row numbers. */
export const importDuplicateRows = (what: string, name: string, first: number, second: number) =>
  `${what}“${name}”在文件中重复（第 ${first} 行与第 ${second} 行）`

/** DESIGN.md §15: a name in a cell that matches no record. */
export const importUnknownName = (what: string, name: string) => `${what}“${name}”不存在`

/** DESIGN.md §15: a department import names a job title that does not exist, and the caller may not create one. */
export const importStationNotAllowed = (name: string) => `职位“${name}”不存在，新建职位需要“新建职位”权限`

/** Webhook endpoints, their deliveries and the pulled change events (DESIGN.md §17). */
export const WEBHOOK_MSG = {
  nameRequired: '请输入 Webhook 名称',
  urlRequired: '请输入 Webhook 地址',
  urlInvalid: 'Webhook 地址不正确，应为 http:// 或 https:// 开头的完整网址',
  urlPrivate: 'Webhook 地址不能指向本机、内网、链路本地或云元数据地址',
  eventTypesRequired: '请至少选择一种事件类型',
  eventTypeUnknown: (type: string) => `未知的事件类型：${type}`,
  enabledRequired: '请选择是否启用',
  idRequired: '请选择 Webhook',
  deliveryIdRequired: '请选择投递记录',
  notFound: 'Webhook 不存在',
  deliveryNotFound: '投递记录不存在',
  disabledFailing: '连续 3 天投递失败，已自动停用',
  rotated: '密钥已轮换，旧密钥在 24 小时内仍然有效',
  afterInvalid: 'after 应为事件编号（非负整数）',
  limitInvalid: 'limit 应为 1 到 1000 之间的整数',
} as const

// the capabilities' own texts live beside this file, one file each, and are read through it
export * from './grant-messages'
export * from './directory-messages'
export * from './passkey-messages'
