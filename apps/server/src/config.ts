import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Every environment variable the server reads, in one place (documented in the README). */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  initialAdminPassword: string
  initialUserPassword: string
  sessionTtlHours: number
  loginMaxFailures: number
  loginLockMinutes: number
  uploadMaxMb: number
  showOperatorUser: boolean
  isAms: boolean
  hideUserBaseInfo: boolean
  logLevel: string
  webDist: string
  fileSweepSeconds: number
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const int = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`配置项取值不是合法的数字: ${value}`)
  return n
}
const bool = (value: string | undefined): boolean => value === 'true' || value === '1'

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    initialAdminPassword: env.INITIAL_ADMIN_PASSWORD || 'Admin@123456',
    initialUserPassword: env.INITIAL_USER_PASSWORD || 'User@12345678',
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 12),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 5),
    loginLockMinutes: int(env.LOGIN_LOCK_MINUTES, 15),
    uploadMaxMb: int(env.UPLOAD_MAX_MB, 50),
    showOperatorUser: bool(env.SHOW_OPERATOR_USER),
    isAms: bool(env.IS_AMS),
    hideUserBaseInfo: bool(env.HIDE_USER_BASE_INFO),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    fileSweepSeconds: int(env.FILE_SWEEP_SECONDS, 300),
    ...overrides,
  }
}
