import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    /** the built console the run serves (a spec may start a server of its own on it) */
    webDist: string
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * End-to-end runs against the real, built system: the console is built (unless E2E_SKIP_BUILD=1),
 * then the server starts on a free port with a temporary DATA_DIR (embedded database) and is
 * stopped, and its data removed, when the run ends.
 */
export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-e2e-'))
  // Each run builds into its own folder, so runs side by side never serve each other's half-built console.
  let webDist = path.join(root, 'apps/web/dist')
  if (process.env.E2E_SKIP_BUILD !== '1' || !fs.existsSync(path.join(webDist, 'index.html'))) {
    webDist = path.join(dataDir, 'web')
    execFileSync('npx', ['vite', 'build', '--outDir', webDist, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: path.join(root, 'apps/web'),
      stdio: 'inherit',
    })
    // the .br and .gz copies the server sends, as `npm run build` writes them
    execFileSync(process.execPath, ['scripts/precompress.mjs', webDist], {
      cwd: path.join(root, 'apps/web'),
      stdio: 'inherit',
    })
  }
  const server = await startBuiltServer(webDist, dataDir, 'Admin@123456')
  project.provide('baseURL', server.baseURL)
  project.provide('webDist', webDist)
  return async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The server with a built console (`webDist`) on a free port, its embedded database under `dataDir`,
 * the first admin's password `adminPassword` (null: none chosen, the built-in default, which must be
 * changed at the first sign-in); answers once healthy.
 *
 * Users the specs create through the admin's forms would have to change their password at their first
 * sign-in (DESIGN.md §14), which is not what those specs are about: unless `forceChangeInitial`, the
 * security setting is turned off through its call, as an operator may (sign-in-security.e2e.ts keeps it).
 *
 * Passwords are hashed at the lowest cost the server allows (2^14, as in the API tests): every sign-in
 * and every user a spec creates waits for one hash, and the specs are not about its cost (the API's
 * password.test.ts checks the production cost). `passwordHashCost` 17 measures as production runs.
 */
export async function startBuiltServer(
  webDist: string,
  dataDir: string,
  adminPassword: string | null,
  {
    forceChangeInitial = false,
    passwordHashCost = 14,
    env = {},
  }: {
    forceChangeInitial?: boolean
    passwordHashCost?: number
    /** more of the server's settings (WEBHOOK_ALLOW_PRIVATE, …) */
    env?: Record<string, string>
  } = {},
) {
  const port = await freePort()
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // the single sign-on issuer (DESIGN.md §16) is the address the browser uses
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(dataDir, 'data'),
      WEB_DIST: webDist,
      DATABASE_URL: '',
      INITIAL_ADMIN_PASSWORD: adminPassword ?? '',
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: String(passwordHashCost),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const baseURL = `http://127.0.0.1:${port}`
  await waitForHealth(baseURL, server)
  if (adminPassword !== null && !forceChangeInitial) await relaxForcedChange(baseURL, adminPassword)
  return {
    baseURL,
    async stop() {
      server.kill('SIGTERM')
      await new Promise((resolve) => {
        server.once('exit', resolve)
        setTimeout(resolve, 5000)
      })
    },
  }
}

/** Turns `forceChangeInitial` off through the settings call, as the admin. */
async function relaxForcedChange(baseURL: string, adminPassword: string) {
  const call = async (method: string, url: string, body: unknown, token?: string) => {
    const res = await fetch(`${baseURL}/api${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as { data: any; msg: string }
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.msg}`)
    return json.data
  }
  const { token } = await call('POST', '/login', { nickName: 'admin', password: adminPassword })
  const get = await fetch(`${baseURL}/api/settings/security`, { headers: { 'x-auth-token': token } })
  const settings = ((await get.json()) as { data: object }).data
  await call('PUT', '/settings/security', { ...settings, forceChangeInitial: false }, token)
  await call('POST', '/logout', {}, token)
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

export async function waitForHealth(baseURL: string, server: ChildProcess) {
  // a fresh embedded database migrates on start: on a busy 2-core machine that can take most of a minute
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`)
    try {
      const res = await fetch(`${baseURL}/api/health`)
      if (res.ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('server did not become healthy within 180 s')
}
