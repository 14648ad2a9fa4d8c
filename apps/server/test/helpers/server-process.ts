import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './constants'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer()
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })

/**
 * The real server (apps/server/src/server.ts) in its own process, as `npm start` runs it. Given a
 * `dataDir`, it runs on that directory and leaves it in place when stopped (a restart on the same
 * data); otherwise on a fresh one removed at stop.
 */
export async function startServer(env: Record<string, string>, options: { dataDir?: string } = {}) {
  const ownDataDir = !options.dataDir
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'amg-proc-'))
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INITIAL_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      SECRET_KEY: TEST_SECRET_KEY,
      PASSWORD_HASH_COST: '14',
      LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const base = `http://127.0.0.1:${port}/api`
  const alive = () => child.exitCode === null && child.signalCode === null
  const stop = async () => {
    if (alive()) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    }
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  }
  /** `kill -9`: the process ends at once, with whatever it had under way (its data stays). */
  const kill = async () => {
    if (!alive()) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  const deadline = Date.now() + 90_000
  for (;;) {
    if (!alive()) throw new Error(`the server exited: ${stderr}`)
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error('the server did not start')
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    base,
    alive,
    stop,
    kill,
    stderr: () => stderr,
    async login(nickName = 'admin', password = TEST_ADMIN_PASSWORD): Promise<string> {
      const res = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nickName, password }),
      })
      const body = (await res.json()) as { data?: { token?: string } }
      if (!body.data?.token) throw new Error(`sign-in failed: ${JSON.stringify(body)}`)
      return body.data.token
    },
  }
}
