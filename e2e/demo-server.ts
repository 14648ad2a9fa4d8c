import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { inject } from 'vitest'
import { startBuiltServer } from './global-setup'
import { ADMIN, newPage, signIn } from './helpers'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The password of every demo account (INITIAL_USER_PASSWORD of the seed). */
export const DEMO_USER_PASSWORD = 'Demo@2024user'

/**
 * A system filled by `npm run seed:demo` (40 users) and started on a database of its own, seeded
 * before the server starts (the embedded database is one process's at a time). `stop` also removes
 * its data.
 */
export async function startDemoServer(): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-e2e-demo-'))
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/seed/demo.ts', '--users', '40'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: path.join(dataDir, 'data'),
        DATABASE_URL: '',
        INITIAL_ADMIN_PASSWORD: ADMIN.password,
        INITIAL_USER_PASSWORD: DEMO_USER_PASSWORD,
        LOG_LEVEL: 'warn',
        // hashed at the end-to-end server's cost (global-setup.ts): at the production cost a sign-in
        // on a busy machine outlasted the console's 5-second timeout
        PASSWORD_HASH_COST: '14',
      },
      stdio: 'ignore',
    })
    const server = await startBuiltServer(inject('webDist'), dataDir, ADMIN.password)
    return {
      baseURL: server.baseURL,
      async stop() {
        await server.stop()
        fs.rmSync(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}

/** A demo account signed in, in a fresh page of the demo system at `baseURL`, on the welcome screen. */
export async function signInDemoAccount(browser: Browser, baseURL: string, nickName: string): Promise<Page> {
  const page = await newPage(browser, { width: 1280, height: 800 }, baseURL)
  await signIn(page, { nickName, password: DEMO_USER_PASSWORD })
  return page
}
