import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import pg from 'pg'
import { MSG } from '@amg/contract'
import { clonePgDatabase } from './helpers/app'
import { hasNginx } from './helpers/nginx'
import { startInstances, type Instances } from './helpers/instances'
import { csvOf, importForm, sheetRows } from './helpers/workbooks'

/**
 * DESIGN.md §19: three real server processes on one fresh PostgreSQL database, behind the real nginx
 * with an `upstream` of the three (round robin). Whatever instance answers, an import started on one
 * is seen and downloaded on the others, an uploaded file downloads from any, and the instance running
 * an import can die (kill -9): the job reads interrupted once its lease runs out, with the counts it
 * committed, and the same file imported again with upsert completes it.
 */
// short for the test, yet long enough for a busy machine's batches (the heartbeat renews it every second)
const LEASE_SECONDS = 10

describe.skipIf(!inject('pgTemplate') || !hasNginx)('three instances behind nginx on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> }
  let run: Instances
  let token: string

  beforeAll(async () => {
    db = await clonePgDatabase()
    run = await startInstances(db.url, {
      IMPORT_LEASE_SECONDS: String(LEASE_SECONDS),
      IMPORT_HEARTBEAT_SECONDS: '1',
    })
    token = await run.instances[0].login()
  }, 240_000)
  afterAll(async () => {
    await run?.stop()
    await db?.drop()
  })

  const call = async (
    base: string,
    method: string,
    path: string,
    body?: { body: Buffer; headers: object },
  ) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'x-auth-token': token, ...(body?.headers ?? {}) },
      body: body?.body as Uint8Array<ArrayBuffer> | undefined,
    })
    const raw = Buffer.from(await res.arrayBuffer())
    const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(raw.toString()) : null
    return { status: res.status, json, raw }
  }
  const usersCsv = (prefix: string, count: number) =>
    Buffer.from(
      '\ufeff' +
        csvOf([
          ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码'],
          ...Array.from({ length: count }, (_, i) => [
            `${prefix}${i}`,
            `用户${i}`,
            '',
            '正常',
            '',
            '',
            '',
            '',
          ]),
        ]),
    )
  const startImport = async (base: string, file: Buffer, mode: string) =>
    call(base, 'POST', '/user/import', await importForm(file, 'users.csv', { mode, dryRun: 'false' }))
  const job = async (base: string, jobId: string) =>
    (await call(base, 'GET', `/import/job?jobId=${jobId}`)).json
  async function until(base: string, jobId: string, done: (j: { status: string; done: number }) => boolean) {
    const deadline = Date.now() + 180_000
    for (;;) {
      const j = await job(base, jobId)
      if (j.code === 200 && done(j.data)) return j.data
      if (Date.now() > deadline) throw new Error(`job ${jobId}: ${JSON.stringify(j)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const countUsers = async (prefix: string) => {
    const c = new pg.Client({ connectionString: db.url })
    await c.connect()
    try {
      const { rows } = await c.query('select count(*)::int as n from users where nick_name like $1', [
        `${prefix}%`,
      ])
      return rows[0].n as number
    } finally {
      await c.end()
    }
  }

  // The sign-in throttle counts in PostgreSQL: a guesser spread over three instances gets the free
  // failures once, not three times. A made-up account, so the admin's own sign-ins stay untouched.
  it('counts failed sign-ins across instances', async () => {
    const signIn = () =>
      fetch(`${run.base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nickName: 'spread_guesser', password: 'wrong-password' }),
      })
    // five free failures (LOGIN_FREE_FAILURES), spread by round robin over the three instances
    for (let i = 0; i < 5; i++) expect((await signIn()).status).not.toBe(429)
    for (let i = 0; i < 3; i++) expect((await signIn()).status).toBe(429)
  })

  it('an import started on one instance is polled and downloaded through the others', async () => {
    const [a, b, c] = run.instances
    const started = await startImport(a.base, usersCsv('multi_', 30), 'insert')
    expect(started.status, started.raw.toString()).toBe(200)
    const jobId = started.json.data.jobId as string
    // polled through nginx: the round robin asks every instance in turn
    const finished = await until(run.base, jobId, (j) => j.status !== 'running')
    expect(finished).toMatchObject({ status: 'done', total: 30, done: 30, inserted: 30, failed: 0 })
    for (const other of [b, c]) {
      expect((await job(other.base, jobId)).data).toEqual(finished)
      const result = await call(other.base, 'GET', `/import/result?jobId=${jobId}`)
      expect(result.status).toBe(200)
      const rows = await sheetRows(result.raw)
      expect(rows.get(1)?.slice(-2)).toEqual(['结果', '原因'])
      expect(rows.get(2)?.[0]).toBe('multi_0')
      expect(rows.get(31)?.[8]).toBe(MSG.importRowInserted)
    }
    expect(await countUsers('multi_')).toBe(30)
  })

  it('a file uploaded through one instance downloads through the others and through nginx', async () => {
    const [a, b, c] = run.instances
    const bytes = randomBytes(600 * 1024)
    const fd = new FormData()
    fd.append('file', new Blob([bytes]), '三个实例.bin')
    const res = new Response(fd)
    const body = {
      body: Buffer.from(await res.arrayBuffer()),
      headers: { 'content-type': res.headers.get('content-type')! },
    }
    const up = await call(a.base, 'POST', '/file-manage/upload-one-step', body)
    expect(up.status, up.raw.toString()).toBe(200)
    const url = String(up.json.data.url).replace(/^\/api/, '')
    for (const base of [b.base, c.base, run.base, run.base, run.base]) {
      const down = await call(base, 'GET', url)
      expect(down.status).toBe(200)
      expect(down.raw.equals(bytes)).toBe(true)
    }
  })

  /** A call's status at one instance, reached directly (not through nginx). */
  const statusAt = async (base: string, path: string, headers: Record<string, string>, body?: object) =>
    (
      await fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', ...headers },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).status
  /** Milliseconds from now until `refused` says yes, polled every 10 ms (fails after two seconds). */
  const msUntil = async (refused: () => Promise<boolean>) => {
    const started = performance.now()
    while (!(await refused())) {
      if (performance.now() - started > 2_000) throw new Error('not refused within two seconds')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return performance.now() - started
  }
  /** The instances' change listeners on this database (their connections are named amg-listener). */
  const listeners = async (cut: boolean) => {
    const c = new pg.Client({ connectionString: db.url })
    await c.connect()
    try {
      const { rows } = await c.query(
        `select ${cut ? 'pg_terminate_backend(pid)' : 'pid'} from pg_stat_activity
          where application_name = 'amg-listener' and datname = current_database()`,
      )
      return rows.length
    } finally {
      await c.end()
    }
  }

  it('a session ended through one instance is refused by the others within 100 ms, also after their listeners were cut', async () => {
    const [a, b, c] = run.instances
    for (const cutFirst of [false, true]) {
      const session = await a.login()
      const current = (base: string) => statusAt(base, '/user/current', { 'x-auth-token': session })
      // held warm by every instance before it ends
      for (const other of [b, c]) expect(await current(other.base)).toBe(200)
      if (cutFirst) {
        expect(await listeners(true)).toBe(3)
        // the instances see their listeners go; they reconnect only after a second
        await new Promise((resolve) => setTimeout(resolve, 150))
        expect(await listeners(false), 'the listeners are still away').toBe(0)
      }
      expect(await statusAt(a.base, '/logout', { 'x-auth-token': session }, {})).toBe(200)
      for (const other of [b, c])
        expect(await msUntil(async () => (await current(other.base)) === 401)).toBeLessThan(100)
    }
  })

  it('a machine token revoked through one instance is refused by every instance', async () => {
    const made = await call(run.base, 'POST', '/service/insert', {
      body: Buffer.from(JSON.stringify({ key: `three-${Date.now() % 100000}`, name: '三实例报表' })),
      headers: { 'content-type': 'application/json' },
    })
    expect(made.status, made.raw.toString()).toBe(200)
    const saved = await call(run.base, 'PUT', '/service/oidc', {
      body: Buffer.from(JSON.stringify({ serviceId: made.json.data, type: 'machine', redirectUris: [] })),
      headers: { 'content-type': 'application/json' },
    })
    expect(saved.status, saved.raw.toString()).toBe(200)
    const { clientId, clientSecret } = saved.json.data as { clientId: string; clientSecret: string }
    const form = {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    }
    const origin = (base: string) => base.replace(/\/api$/, '')
    const issued = await fetch(`${origin(run.base)}/oidc/token`, {
      method: 'POST',
      headers: form,
      body: 'grant_type=client_credentials',
    })
    expect(issued.status).toBe(200)
    const machineToken = ((await issued.json()) as { access_token: string }).access_token
    const check = (base: string) =>
      statusAt(
        base,
        '/authz/check',
        { authorization: `Bearer ${machineToken}` },
        { method: 'GET', path: '/user/list' },
      )
    for (const instance of run.instances) expect(await check(instance.base)).toBe(200)
    const revoked = await fetch(`${origin(run.instances[1].base)}/oidc/token/revocation`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ token: machineToken }),
    })
    expect(revoked.status).toBe(200)
    for (const instance of run.instances)
      expect(await msUntil(async () => (await check(instance.base)) === 401)).toBeLessThan(100)
  })

  it('one import at a time across instances; kill -9 of the running one leaves it interrupted with true counts, and upsert completes it', async () => {
    // (a second try runs on the instances still alive, with names of its own)
    const [a, b] = run.instances.filter((i) => i.alive())
    const prefix = `killed_${randomBytes(3).toString('hex')}_`
    const total = 30_000
    const file = usersCsv(prefix, total)
    const started = await startImport(a.base, file, 'insert')
    expect(started.status, started.raw.toString()).toBe(200)
    const jobId = started.json.data.jobId as string
    // a second import, on another instance, is refused as one on the same instance is
    const second = await startImport(b.base, usersCsv('second_', 1), 'insert')
    expect(second.status).toBe(409)
    expect(second.json.msg).toBe(MSG.importBusy)

    const running = await until(b.base, jobId, (j) => j.status !== 'running' || j.done >= 1000)
    expect(running.status, 'the import ended before it could be killed').toBe('running')
    await a.kill()
    const killedAt = Date.now()
    const interrupted = await until(run.base, jobId, (j) => j.status !== 'running')
    // the lease was last renewed at most a heartbeat before the kill
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 2) * 1000)
    expect(interrupted.status).toBe('interrupted')
    expect(interrupted).toMatchObject({ msg: MSG.importInstanceLost, failed: 0, updated: 0 })
    const inDatabase = await countUsers(prefix)
    // the counts are what committed: every committed batch, nothing of the one under way
    expect(interrupted.done).toBeGreaterThanOrEqual(1000)
    expect(interrupted.done).toBeLessThan(total)
    expect(interrupted.inserted).toBe(inDatabase)
    expect(interrupted.done).toBe(inDatabase)
    const noResult = await call(run.base, 'GET', `/import/result?jobId=${jobId}`)
    expect(noResult.status).toBe(409)
    expect(noResult.json.msg).toBe(MSG.importInstanceLost)

    // the same file again, with upsert, through nginx (the dead instance is skipped)
    const again = await startImport(run.base, file, 'upsert')
    expect(again.status, again.raw.toString()).toBe(200)
    const completed: Record<string, number> & { status: string } = await until(
      run.base,
      again.json.data.jobId,
      (j) => j.status !== 'running',
    )
    expect(completed).toMatchObject({
      status: 'done',
      total,
      done: total,
      inserted: total - inDatabase,
      failed: 0,
    })
    expect(completed.updated + completed.unchanged).toBe(inDatabase)
    expect(await countUsers(prefix)).toBe(total)
  }, 400_000)
})
