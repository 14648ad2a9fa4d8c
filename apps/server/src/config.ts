import { isIP } from 'node:net'
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
  /** failed sign-ins per account and client address before attempts are refused for a while */
  loginFreeFailures: number
  /** the longest such refusal, in seconds (the wait doubles with each further failure up to this) */
  loginMaxWaitSeconds: number
  /** log2 of scrypt's N for new password hashes */
  passwordHashCost: number
  /** which proxies may name the client address in X-Forwarded-For (Fastify's `trustProxy`) */
  trustProxy: TrustProxy
  uploadMaxMb: number
  showOperatorUser: boolean
  isAms: boolean
  hideUserBaseInfo: boolean
  logLevel: string
  webDist: string
  fileSweepSeconds: number
  /** operation and login log rows older than this are swept (DESIGN.md §9) */
  auditRetentionDays: number
}

/** off, trust every proxy, trust this many hops, or trust these addresses / CIDRs */
export type TrustProxy = boolean | number | string[]

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const int = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new Error(`配置项取值不是合法的数字: ${value}`)
  return n
}
const bool = (value: string | undefined): boolean => value === 'true' || value === '1'

// proxy-addr's names for well-known ranges, accepted by Fastify beside addresses and CIDRs
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** TRUST_PROXY: `true`/`false`, a hop count, or a comma-separated list of addresses and CIDRs. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim()
  if (v === '' || v === 'false' || v === '0') return false
  if (v === 'true') return true
  if (/^\d+$/.test(v)) return Number(v)
  const entries = v.split(',').map((e) => e.trim())
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/')
    const validPrefix =
      prefix === undefined || /^\d{1,3}$/.test(prefix) || (isIP(prefix) === 4 && isIP(address) === 4)
    if (!(PROXY_RANGE_NAMES.has(entry) || (isIP(address) && validPrefix && rest.length === 0)))
      throw new Error(`TRUST_PROXY 取值不正确: ${entry}（应为 true、跳数，或以逗号分隔的地址 / CIDR）`)
  }
  return entries
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    initialAdminPassword: env.INITIAL_ADMIN_PASSWORD || 'Admin@123456',
    initialUserPassword: env.INITIAL_USER_PASSWORD || 'User@12345678',
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 12),
    loginFreeFailures: int(env.LOGIN_FREE_FAILURES, 5),
    loginMaxWaitSeconds: int(env.LOGIN_MAX_WAIT_SECONDS, 900),
    passwordHashCost: int(env.PASSWORD_HASH_COST, 17),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    uploadMaxMb: int(env.UPLOAD_MAX_MB, 50),
    showOperatorUser: bool(env.SHOW_OPERATOR_USER),
    isAms: bool(env.IS_AMS),
    hideUserBaseInfo: bool(env.HIDE_USER_BASE_INFO),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    fileSweepSeconds: int(env.FILE_SWEEP_SECONDS, 300),
    auditRetentionDays: int(env.AUDIT_RETENTION_DAYS, 365),
    ...overrides,
  }
}
