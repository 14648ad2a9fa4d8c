import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { deployFile, fillTemplate, freePort, stopChild, waitForPort } from './processes'

/** The first `caddy` on PATH (Debian's package puts it at /usr/bin/caddy), if any. */
export const CADDY_BIN = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter(Boolean)
  .map((dir) => path.join(dir, 'caddy'))
  .find((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return fs.statSync(file).isFile()
    } catch {
      return false
    }
  })
export const hasCaddy = CADDY_BIN !== undefined

const TEMPLATE = deployFile('caddy/Caddyfile')

export interface RunningCaddy {
  port: number
  dir: string
  stop(): Promise<void>
}

/**
 * The real Caddy with deploy/caddy/Caddyfile filled in, in the foreground (`caddy run`) so that
 * the test owns the process. Its home, config and data folders are a temporary folder: nothing
 * is read from or written to the user's own, and the admin API is off in the template, so a
 * Caddy already running on this machine (port 80, admin on 2019) is not touched.
 */
export async function startCaddy(
  amsUrl: string,
  upstreamUrl: string,
  /** the key of the service the gateway protects (DESIGN.md §10a) */
  service = 'ams',
): Promise<RunningCaddy> {
  if (!CADDY_BIN) throw new Error('no caddy on PATH')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-caddy-'))
  const port = await freePort()
  const config = path.join(dir, 'Caddyfile')
  fs.writeFileSync(
    config,
    fillTemplate(TEMPLATE, {
      BIND: '127.0.0.1',
      PORT: String(port),
      AMS: amsUrl,
      SERVICE: service,
      UPSTREAM: upstreamUrl,
    }),
  )
  const log = path.join(dir, 'caddy.log')
  const out = fs.openSync(log, 'a')
  const child = spawn(CADDY_BIN, ['run', '--config', config, '--adapter', 'caddyfile'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
    },
    stdio: ['ignore', out, out],
  })
  fs.closeSync(out)
  const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true })
  try {
    await waitForPort(port, child, 'caddy', log)
  } catch (err) {
    await stopChild(child, 'SIGKILL')
    cleanUp()
    throw err
  }
  return {
    port,
    dir,
    async stop() {
      await stopChild(child, 'SIGTERM') // graceful: Caddy finishes its requests, then exits
      cleanUp()
    },
  }
}
