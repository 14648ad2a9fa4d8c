import type { FastifyBaseLogger } from 'fastify'

type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/** pino's level check (Fastify's types leave it out). */
const enabled = (log: FastifyBaseLogger, level: string) =>
  (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true

/**
 * A request's logger, made only when the request writes a line. Fastify makes a child of the app's
 * logger for every request, with the request's id bound to it, and pino works the bindings out (and
 * runs them through the redaction) as the child is made: about a microsecond of every call through
 * Fastify, while at the default level a successful read writes no line at all (lib/request-log.ts).
 * This stands in for the child and makes it at the first line that will be written; every line is the
 * child's own, so it carries the request's id as before.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options))
  }

  get level(): string {
    return (this.made ?? this.parent).level
  }

  set level(level: string) {
    this.real.level = level
  }

  isLevelEnabled(level: string): boolean {
    return enabled(this.made ?? this.parent, level)
  }

  private write(level: Level, args: unknown[]) {
    if (!enabled(this.made ?? this.parent, level)) return
    ;(this.real[level] as (...a: unknown[]) => void)(...args)
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args)
  }
  error(...args: unknown[]) {
    this.write('error', args)
  }
  warn(...args: unknown[]) {
    this.write('warn', args)
  }
  info(...args: unknown[]) {
    this.write('info', args)
  }
  debug(...args: unknown[]) {
    this.write('debug', args)
  }
  trace(...args: unknown[]) {
    this.write('trace', args)
  }
  silent() {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options)
  }
}

/**
 * Fastify's `childLoggerFactory`: a request's child logger, made when it is first written to; at once
 * for a route with a level of its own (the child's level then decides what is written, not the app's).
 */
export const lazyRequestLogger = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: NonNullable<ChildOptions>,
): FastifyBaseLogger =>
  options.level === undefined
    ? (new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger)
    : logger.child(bindings, options)
