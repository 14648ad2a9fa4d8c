import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export interface Running {
  url: string
  /** the process id, for reading the CPU time it spends (`cpuSecondsOf`) */
  pid: number
  stop(): Promise<void>
}

/**
 * The CPU time (user + system, in seconds) a process has spent so far, from /proc; undefined where
 * there is no /proc. Beside req/s it says what a request costs the server alone, whatever the load
 * generator sharing the machine costs.
 */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every platform Node supports there. */
const CLOCK_TICKS = 100

/** Starts a TypeScript entry point of the server package in its own process and waits until `readyPath` answers. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  readyPath: string,
): Promise<Running> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : []),
      '--import',
      'tsx',
      entry,
    ],
    {
      cwd: serverRoot,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      // the server's own log lines go where a production log would: away, at full cost
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url + readyPath)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not start`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
      }),
  }
}

/** The access-management server itself on a fresh database: an embedded one in a temporary folder, or DATABASE_URL's. */
export async function startAccessServer(
  databaseUrl?: string,
  env: Record<string, string> = {},
): Promise<Running & { token: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-bench-'))
  const password = 'Bench@123456'
  const running = await startProcess(
    'src/server.ts',
    {
      DATA_DIR: dataDir,
      INITIAL_ADMIN_PASSWORD: password,
      PASSWORD_HASH_COST: '14',
      // no URL: the embedded database, whatever DATABASE_URL the measuring process itself carries
      DATABASE_URL: databaseUrl ?? '',
      ...env,
    },
    '/api/health',
  )
  const login = await fetch(`${running.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nickName: 'admin', password }),
  })
  const token = ((await login.json()) as { data: { token: string } }).data.token
  return {
    ...running,
    token,
    async stop() {
      await running.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
