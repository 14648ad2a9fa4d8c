/**
 * Whether an error means "the database cannot serve this right now" rather than "this request is
 * wrong": a connection lost or refused (a restart, failover, pooler restart, network reset, or one of
 * the server's own timeouts ending the session), a statement cancelled by `statement_timeout`, a
 * server out of connections or resources, or a transaction PostgreSQL chose to abort (deadlock,
 * serialization). The request is answered 503 with Retry-After; trying again later can succeed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps the driver's error in its own (`cause`); look a few levels down
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/**
 * SQLSTATEs: class 08 (connection exception), 53 (insufficient resources, too many connections),
 * 57P01–57P03 (the server shut down or is starting), 57014 (statement_timeout or a cancel), 25P03
 * (idle_in_transaction_session_timeout), 40001 and 40P01 (serialization failure, deadlock).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|57014|25P03|40001|40P01)$/

/** Node's socket errors on the way to the database. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** What node-postgres says, without a code, when a connection dies or cannot be had in time. */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout|the database did not answer in time)/
