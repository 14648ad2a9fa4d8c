import { isIP } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Every environment variable the server reads, in one place (documented in the README). */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  initialAdminPassword: string
  /**
   * INITIAL_ADMIN_PASSWORD was set: the operator chose the admin's password, which then counts as the
   * admin's own; the built-in default must be changed at the first sign-in (DESIGN.md §14)
   */
  initialAdminPasswordChosen: boolean
  initialUserPassword: string
  sessionTtlHours: number
  /** failed sign-ins per account and client address before attempts are refused for a while */
  loginFreeFailures: number
  /** the longest such refusal, in seconds (the wait doubles with each further failure up to this) */
  loginMaxWaitSeconds: number
  /** the first such refusal, in seconds (1; tests that must not outrun it lengthen it) */
  loginFirstWaitSeconds: number
  /** log2 of scrypt's N for new password hashes */
  passwordHashCost: number
  /** how many passwords are hashed at once (each takes a core for a moment); the rest wait their turn */
  passwordHashConcurrency: number
  /** the longest a password check may wait for its turn before the request is answered 503 */
  passwordHashMaxWaitSeconds: number
  /** PostgreSQL: `statement_timeout` of the server's sessions (0: none) */
  dbStatementTimeoutSeconds: number
  /** PostgreSQL: `idle_in_transaction_session_timeout` of the server's sessions (0: none) */
  dbIdleInTransactionTimeoutSeconds: number
  /** PostgreSQL: how long warm sessions and decisions keep answering while change notices cannot be heard */
  dbOutageGraceSeconds: number
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
  /**
   * the IANA time zone the logs' times are written in (TZ, else the machine's): the console and the
   * CSV export show them in it, with its offset, whatever the reader's own zone
   */
  timeZone: string
  /**
   * PostgreSQL (DESIGN.md §19): how long a running import stays its instance's without a heartbeat;
   * after it, any instance marks the job interrupted
   */
  importLeaseSeconds: number
  /** PostgreSQL: how often the instance running an import renews its lease */
  importHeartbeatSeconds: number
  /** webhooks may target loopback, private and link-local addresses (tests, closed networks); off by default */
  webhookAllowPrivate: boolean
  /** how often each instance's webhook worker looks for due deliveries, in ms */
  webhookWorkerIntervalMs: number
  /** how long a claimed delivery stays one worker's before it is due again (a worker that died mid-send) */
  webhookLeaseSeconds: number
  /** every wait between delivery attempts is multiplied by this (tests shrink it; 1 in production) */
  webhookRetryScale: number
  /** DESIGN.md §16: the address users and applications reach this server at; the issuer is `${publicUrl}/oidc` */
  publicUrl: string
  /**
   * DESIGN.md §23: PUBLIC_URL was given, so passkeys take their relying-party id and origin from it;
   * otherwise from the address each request reached the console at
   */
  publicUrlSet: boolean
  /**
   * DESIGN.md §16: the key client secrets and signing keys are encrypted with at rest (any string; its
   * SHA-256 is the AES key). Unset: a random key kept in the data directory (embedded database only:
   * instances sharing a PostgreSQL database must be given the same SECRET_KEY).
   */
  secretKey: string | undefined
  /** DESIGN.md §21: how often each instance writes the permission usage it recorded, in seconds */
  usageFlushSeconds: number
  /** DESIGN.md §21: record usage at all (USAGE_RECORDING=false turns it off: no recommendations from use) */
  usageRecording: boolean
  /** DESIGN.md §20: how often each instance deletes expired links, in seconds (0: never; they decide nothing anyway) */
  linkSweepSeconds: number
  /** DESIGN.md §22: how often each instance looks whether a scheduled directory sync is due, in seconds (0: never) */
  directorySyncCheckSeconds: number
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
/**
 * A delivery's lease must outlast one attempt (a 10 s timeout, then its record): a shorter one would let
 * a second worker send a delivery the first is still waiting on.
 */
export const MIN_WEBHOOK_LEASE_SECONDS = 15
const webhookLease = (value: string | undefined): number => {
  const seconds = int(value, 60)
  if (seconds < MIN_WEBHOOK_LEASE_SECONDS)
    throw new Error(`WEBHOOK_LEASE_SECONDS 不能小于 ${MIN_WEBHOOK_LEASE_SECONDS}: ${value}`)
  return seconds
}
/**
 * One core fewer than the machine has, at least one: hashing never takes every core from the requests
 * that only need a decision from memory.
 */
export const defaultHashConcurrency = () => Math.max(1, os.availableParallelism() - 1)

/** TZ when it names an IANA zone (`Asia/Shanghai`, `UTC`), else the zone the machine runs in. */
export function timeZoneOf(value: string | undefined): string {
  const zone = (value ?? '').trim().replace(/^:/, '')
  if (zone) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
    } catch {
      // a POSIX rule (`CST-6CDT`) or a file path: the runtime already read it as the machine's zone
    }
  }
  return new Intl.DateTimeFormat().resolvedOptions().timeZone
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

/** The admin's password when INITIAL_ADMIN_PASSWORD is not set: to be changed at the first sign-in. */
export const BUILT_IN_ADMIN_PASSWORD = 'Admin@123456'

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    initialAdminPassword: env.INITIAL_ADMIN_PASSWORD || BUILT_IN_ADMIN_PASSWORD,
    // a password handed in by a harness (overrides) is chosen too
    initialAdminPasswordChosen:
      Boolean(env.INITIAL_ADMIN_PASSWORD) || overrides.initialAdminPassword !== undefined,
    initialUserPassword: env.INITIAL_USER_PASSWORD || 'User@12345678',
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 12),
    loginFreeFailures: int(env.LOGIN_FREE_FAILURES, 5),
    loginMaxWaitSeconds: int(env.LOGIN_MAX_WAIT_SECONDS, 900),
    loginFirstWaitSeconds: 1,
    passwordHashCost: int(env.PASSWORD_HASH_COST, 17),
    passwordHashConcurrency: int(env.PASSWORD_HASH_CONCURRENCY, 0) || defaultHashConcurrency(),
    passwordHashMaxWaitSeconds: int(env.PASSWORD_HASH_MAX_WAIT_SECONDS, 10),
    dbStatementTimeoutSeconds: int(env.DB_STATEMENT_TIMEOUT_SECONDS, 30),
    dbIdleInTransactionTimeoutSeconds: int(env.DB_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS, 30),
    dbOutageGraceSeconds: int(env.DB_OUTAGE_GRACE_SECONDS, 60),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    uploadMaxMb: int(env.UPLOAD_MAX_MB, 50),
    showOperatorUser: bool(env.SHOW_OPERATOR_USER),
    isAms: bool(env.IS_AMS),
    hideUserBaseInfo: bool(env.HIDE_USER_BASE_INFO),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    fileSweepSeconds: int(env.FILE_SWEEP_SECONDS, 300),
    auditRetentionDays: int(env.AUDIT_RETENTION_DAYS, 365),
    timeZone: timeZoneOf(env.TZ),
    importLeaseSeconds: int(env.IMPORT_LEASE_SECONDS, 60),
    importHeartbeatSeconds: int(env.IMPORT_HEARTBEAT_SECONDS, 15),
    webhookAllowPrivate: bool(env.WEBHOOK_ALLOW_PRIVATE),
    webhookWorkerIntervalMs: int(env.WEBHOOK_WORKER_INTERVAL_MS, 2000),
    webhookLeaseSeconds: webhookLease(env.WEBHOOK_LEASE_SECONDS),
    webhookRetryScale: 1,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${int(env.PORT, 8080)}`).replace(/\/+$/, ''),
    publicUrlSet: !!env.PUBLIC_URL,
    secretKey: env.SECRET_KEY || undefined,
    usageFlushSeconds: int(env.USAGE_FLUSH_SECONDS, 60),
    usageRecording: env.USAGE_RECORDING !== 'false',
    linkSweepSeconds: int(env.LINK_SWEEP_SECONDS, 60),
    directorySyncCheckSeconds: int(env.DIRECTORY_SYNC_CHECK_SECONDS, 60),
    ...overrides,
  }
}

/** The hashing limits of `configurePasswordHashing` (auth/password.ts). */
export const hashingLimits = (config: Config) => ({
  concurrency: config.passwordHashConcurrency,
  maxWaitSeconds: config.passwordHashMaxWaitSeconds,
})

/** What the served app sets on PostgreSQL (db/connection.ts): its sessions' limits and the outage grace. */
export const postgresSettings = (config: Config) => ({
  sessionLimits: {
    statementTimeoutMs: config.dbStatementTimeoutSeconds * 1000,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutSeconds * 1000,
  },
  outageGraceMs: config.dbOutageGraceSeconds * 1000,
})

/** How the server opens its database: PostgreSQL with the session limits, or the embedded one. */
export const databaseOptions = (config: Config) =>
  config.databaseUrl
    ? {
        databaseUrl: config.databaseUrl,
        stageAuditRows: true,
        ...postgresSettings(config),
      }
    : { dataDir: config.dataDir, stageAuditRows: true }
