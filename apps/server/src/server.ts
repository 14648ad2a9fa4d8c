import fs from 'node:fs'
import { databaseOptions, hashingLimits, loadConfig } from './config'
import { openDatabase } from './db/connection'
import { seedBase } from './seed/base'
import { buildApp } from './app'
import { configurePasswordHashing } from './auth/password'
import { restrictNewFiles, securePrivateDir } from './db/private-files'

/** Start the server: open (and migrate) the database, seed first-start data, listen. */
async function main() {
  const config = loadConfig()
  // before seeding: the first admin hash too
  configurePasswordHashing(config.passwordHashCost, hashingLimits(config))
  // What the server writes is its own user's only (db/private-files.ts). The embedded database
  // tightens its data directory as it opens; with PostgreSQL the directory holds the uploads.
  restrictNewFiles()
  if (config.databaseUrl && fs.existsSync(config.dataDir)) securePrivateDir(config.dataDir)
  const database = await openDatabase(databaseOptions(config))
  await seedBase(database.db, config)
  const app = await buildApp({ config, database })
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  app.addHook('onClose', async () => {})
  await app.listen({ port: config.port, host: config.host })
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
