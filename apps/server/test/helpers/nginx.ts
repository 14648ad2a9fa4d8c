import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { deployFile, fillTemplate, freePort, stopChild, waitForPort } from './processes'

export const NGINX_BIN = '/usr/sbin/nginx'
export const hasNginx = fs.existsSync(NGINX_BIN)

const TEMPLATE = deployFile('nginx/auth-request.conf')

export interface RunningNginx {
  port: number
  dir: string
  stop(): Promise<void>
}

/**
 * The real nginx with deploy/nginx/auth-request.conf filled in, everything (config, logs, pid,
 * temp paths) in a temporary folder, in the foreground so that the test owns the process.
 */
export async function startNginx(
  amsUrl: string,
  upstreamUrl: string,
  /** another site than the committed template (the measuring script's plain proxy) */
  siteTemplate = TEMPLATE,
  /** the key of the service the gateway protects (DESIGN.md §10a) */
  service = 'ams',
): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-nginx-'))
  fs.chmodSync(dir, 0o755) // workers may run as another user than the master
  const port = await freePort()
  const site = fillTemplate(siteTemplate, {
    LISTEN: `127.0.0.1:${port}`,
    AMS: amsUrl,
    SERVICE: service,
    UPSTREAM: upstreamUrl,
  })
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
  try {
    await waitForPort(port, child, 'nginx', log)
  } catch (err) {
    await stopChild(child, 'SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
    throw err
  }
  return {
    port,
    dir,
    async stop() {
      await stopChild(child, 'SIGQUIT') // graceful: the master stops its workers too
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
