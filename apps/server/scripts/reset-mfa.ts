import { eq } from 'drizzle-orm'
import { normalizeName } from '@amg/contract'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/connection'
import { users } from '../src/db/schema'
import { removeMfa } from '../src/auth/mfa'
import { endUserSessions } from '../src/auth/sessions'

/**
 * `npm run reset-mfa -w apps/server -- <用户昵称>`: removes a user's two-step sign-in (key and recovery
 * codes) and ends their sessions, for the last super admin who lost their device when no other super
 * admin can reset it from the console (DESIGN.md §14). Run on the server's machine, with the server's
 * environment (DATA_DIR or DATABASE_URL); the embedded database must not be open elsewhere (stop the
 * server first).
 */
async function main() {
  const name = process.argv[2]
  if (!name) {
    console.error('用法：npm run reset-mfa -w apps/server -- <用户昵称>')
    process.exit(2)
  }
  const config = loadConfig()
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  )
  try {
    const [user] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.nickName, normalizeName(name)))
    if (!user) {
      console.error(`用户不存在：${name}`)
      process.exitCode = 1
      return
    }
    await database.db.transaction(async (tx) => {
      await removeMfa(tx, user.id)
      await endUserSessions(tx, user.id)
    })
    console.log(`已重置 ${name} 的两步验证，并结束其全部会话；该用户现在只需密码即可登录，然后重新绑定。`)
  } finally {
    await database.close()
  }
}

await main()
