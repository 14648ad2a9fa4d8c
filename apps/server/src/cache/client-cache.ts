import { WatchedCache, type CacheHost } from './watched-cache'

/**
 * The single sign-on clients as the provider reads them (modules/oidc/clients.ts), by client id,
 * kept until a service or its sign-on settings change (migrations 0009 and 0021 notify 'authz'):
 * a machine client asks for a token many times a second, and each grant would otherwise read the
 * same rows twice (the client, then its service account).
 */
export class ClientCache<Client> extends WatchedCache {
  private readonly byId = new Map<string, Client | null>()

  constructor(host: CacheHost) {
    super(host, 'authz')
  }

  protected forget() {
    this.byId.clear()
  }

  /** The client (null: known not to exist or disabled), or undefined when nothing is held. */
  get(clientId: string): Client | null | undefined {
    return this.current() ? this.byId.get(clientId) : undefined
  }

  /** Keeps what was read after `token` was taken, unless it may not be kept. */
  keep(token: number, clientId: string, client: Client | null): void {
    // unknown ids are kept too, but not without bound: anyone may send any client id
    if (client === null && this.byId.size >= 10_000) return
    if (this.mayKeep(token)) this.byId.set(clientId, client)
  }
}
