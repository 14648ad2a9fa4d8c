import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const NGINX_BIN = '/usr/sbin/nginx'
export const hasNginx = fs.existsSync(NGINX_BIN)

const TEMPLATE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../deploy/nginx/auth-request.conf',
)

/** A port free right now (the kernel picks it; a tiny race with other processes is accepted). */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function waitForPort(port: number, child: ChildProcess, log: string) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${fs.readFileSync(log, 'utf8')}`)
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)))
      s.on('error', () => resolve(false))
    })
    if (open) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`nginx did not listen on ${port}`)
}

export interface RunningNginx {
  port: number
  dir: string
  stop(): Promise<void>
}

/**
 * The real nginx with deploy/nginx/auth-request.conf filled in, everything (config, logs, pid,
 * temp paths) in a temporary folder, in the foreground so that the test owns the process.
 */
export async function startNginx(amsUrl: string, upstreamUrl: string): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-nginx-'))
  fs.chmodSync(dir, 0o755) // workers may run as another user than the master
  const port = await freePort()
  const site = fs
    .readFileSync(TEMPLATE, 'utf8')
    .replaceAll('__LISTEN__', `127.0.0.1:${port}`)
    .replaceAll('__AMS__', amsUrl)
    .replaceAll('__UPSTREAM__', upstreamUrl)
  fs.writeFileSync(path.join(dir, 'site.conf'), site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
  for (const t of temp) fs.mkdirSync(path.join(dir, t), { mode: 0o777 })
  const log = path.join(dir, 'error.log')
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
error_log ${log} info;
events { worker_connections 64; }
http {
  access_log off;
${temp.map((t) => `  ${t}_temp_path ${path.join(dir, t)};`).join('\n')}
  include ${path.join(dir, 'site.conf')};
}
`,
  )
  const child = spawn(
    NGINX_BIN,
    [
      '-e',
      log,
      '-p',
      dir,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-g',
      `daemon off; pid ${path.join(dir, 'nginx.pid')};`,
    ],
    { stdio: 'ignore' },
  )
  await waitForPort(port, child, log)
  return {
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGQUIT') // graceful: the master stops its workers too
        await exited
      }
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
