import { WatchedCache, type CacheHost } from './watched-cache'

/**
 * The access cache: each user's resolved access, and the permission tree every resolution reads,
 * kept until a table that decides access changes (migration 0001, watched-cache.ts). What it holds,
 * the authorizer (auth/authorizer.ts) works out.
 */
export class AccessCache<Access, Tree> extends WatchedCache {
  private readonly byUser = new Map<number, Access>()
  private heldTree: Tree | undefined

  constructor(host: CacheHost) {
    super(host, 'authz')
  }

  protected forget() {
    this.byUser.clear()
    this.heldTree = undefined
  }

  /** The user's access, when it is held here. */
  access(userId: number): Access | undefined {
    return this.current() ? this.byUser.get(userId) : undefined
  }

  /** Keeps the user's access read after `token` was taken, unless it may not be kept. */
  keepAccess(token: number, userId: number, access: Access): void {
    if (this.mayKeep(token)) this.byUser.set(userId, access)
  }

  /** The permission tree, when it is held here. */
  tree(): Tree | undefined {
    return this.current() ? this.heldTree : undefined
  }

  /** Keeps the tree read after `token` was taken, unless it may not be kept. */
  keepTree(token: number, tree: Tree): void {
    if (this.mayKeep(token)) this.heldTree = tree
  }
}
