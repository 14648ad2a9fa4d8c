/** What a route's config may say about it (lib/context.ts): who may call it, and whether it only reads. */
export interface RouteKindConfig {
  access?: string
  readOnly?: boolean
}

/**
 * Whether a request may write: any method but GET/HEAD/OPTIONS, unless the route is a read sent as
 * POST (`readOnly`). Such requests look for changed access afterwards and always get a log line.
 */
export const mayWrite = (method: string, config: RouteKindConfig | undefined): boolean =>
  method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !config?.readOnly
