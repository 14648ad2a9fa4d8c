import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { deployFile } from './processes'
import { startNginx, type RunningNginx } from './nginx'
import { startServer } from './server-process'

export type ServerProcess = Awaited<ReturnType<typeof startServer>>

export interface Instances {
  /** each instance, reached directly */
  instances: ServerProcess[]
  nginx: RunningNginx
  /** the API through nginx's round robin, e.g. http://127.0.0.1:PORT/api */
  base: string
  stop(): Promise<void>
}

/**
 * Three server processes on one PostgreSQL database (the same DATABASE_URL and SECRET_KEY, each its
 * own DATA_DIR), behind the real nginx with deploy/nginx/instances.conf (round robin), as DESIGN.md
 * §19 deploys them. Whatever fails to start is stopped again.
 */
export async function startInstances(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Instances> {
  const started = await Promise.allSettled(
    [0, 1, 2].map(() =>
      // one public address for all three, as behind one gateway: their tokens name the same issuer
      startServer({
        DATABASE_URL: databaseUrl,
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_URL: 'http://amg.test',
        ...env,
      }),
    ),
  )
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const stopAll = () => Promise.all(instances.map((i) => i.stop()))
  const failed = started.find((s) => s.status === 'rejected')
  if (failed) {
    await stopAll()
    throw (failed as PromiseRejectedResult).reason
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-instances-'))
  const site = path.join(dir, 'instances.conf')
  const [first, second, third] = instances.map((i) => new URL(i.base).host)
  // the instances' addresses filled in here, nginx's own address by startNginx
  fs.writeFileSync(
    site,
    fs
      .readFileSync(deployFile('nginx/instances.conf'), 'utf8')
      .replaceAll('__FIRST__', first)
      .replaceAll('__SECOND__', second)
      .replaceAll('__THIRD__', third),
  )
  let nginx: RunningNginx
  try {
    nginx = await startNginx('', '', site)
  } catch (err) {
    await stopAll()
    throw err
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return {
    instances,
    nginx,
    base: `http://127.0.0.1:${nginx.port}/api`,
    async stop() {
      await nginx.stop()
      await stopAll()
    },
  }
}
