/** Passkeys (DESIGN.md §23). */
export const PASSKEY_MSG = {
  nameRequired: '请输入通行密钥名称',
  responseRequired: '缺少通行密钥的应答',
  idRequired: '请选择通行密钥',
  notFound: '通行密钥不存在',
  challengeInvalid: '通行密钥请求已失效或已使用，请重试',
  verifyFailed: '通行密钥验证失败',
  unknownCredential: '该通行密钥未登记',
  counterBack: '通行密钥计数器回退，可能已被复制，已拒绝',
  notForThisStep: '该通行密钥不属于正在登录的用户',
  duplicate: '该通行密钥已添加过',
  registered: '通行密钥已添加',
  removed: '通行密钥已删除',
  renamed: '通行密钥已重命名',
  mustEnroll: '请先添加通行密钥',
  passkeyOnly: '请使用通行密钥完成验证',
  signedIn: '通行密钥登录成功',
} as const
