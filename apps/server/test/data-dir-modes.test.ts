import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest'
import { tightenTree } from '../src/db/private-files'
import { freePort, stopChild } from './helpers/processes'

/**
 * DESIGN.md §11: the data directory and everything in it are readable by the server's user only
 * (directories 0700, files 0600): the embedded database's files (its write-ahead log holds every
 * password hash), the files it creates while running, and the uploads; a directory left loose by an
 * older version is tightened at start. The real server is started, under a umask of 000 so that only
 * the server's own measures count. About the embedded database on disk: the PGlite pass only.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-modes-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const children: ChildProcess[] = []
afterEach(async () => {
  for (const child of children.splice(0)) await stopChild(child, 'SIGKILL')
})

const serverEntry = path.resolve(__dirname, '../src/server.ts')
const ADMIN_PASSWORD = 'First#Admin2026x'

/** Every entry below `dir` (itself included) with its permission bits, e.g. `['pglite/base', 0o700]`. */
function modesUnder(dir: string): [string, number, 'dir' | 'file' | 'other'][] {
  const found: [string, number, 'dir' | 'file' | 'other'][] = []
  const visit = (p: string) => {
    const st = fs.lstatSync(p)
    const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other'
    found.push([path.relative(dir, p) || '.', st.mode & 0o7777, kind])
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name))
  }
  visit(dir)
  return found
}

/** The entries whose modes are not exactly 0700 (directories) and 0600 (files). */
const loose = (dir: string) =>
  modesUnder(dir)
    .filter(([, mode, kind]) => mode !== (kind === 'dir' ? 0o700 : 0o600))
    .map(([p, mode, kind]) => `${kind} ${p} ${mode.toString(8)}`)

async function startServer(dataDir: string) {
  const port = await freePort()
  let output = ''
  const child = spawn(
    '/bin/sh',
    ['-c', 'umask 000 && exec "$0" --import tsx "$1"', process.execPath, serverEntry],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PASSWORD_HASH_COST: '14',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.push(child)
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const base = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`)
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    await new Promise((r) => setTimeout(r, 200))
  }
  const call = async (method: string, url: string, token: string | null, body?: unknown) => {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(token ? { 'x-auth-token': token } : {}),
        ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } }
  }
  const login = async (password: string) => {
    const res = await call('POST', '/api/login', null, { nickName: 'admin', password })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data.token as string
  }
  return { child, call, login, stop: () => stopChild(child, 'SIGTERM') }
}

describe.skipIf(!!inject('pgTemplate'))('the data directory is the server user’s only', () => {
  it('on a fresh directory: the database, the files it creates while running and the uploads', async () => {
    const dataDir = path.join(root, 'fresh')
    const server = await startServer(dataDir)
    const token = await server.login(ADMIN_PASSWORD)
    for (let i = 0; i < 30; i++) {
      const res = await server.call('POST', '/api/user/insert', token, {
        nickName: `modes_${i}`,
        password: 'Some#Password2026',
      })
      expect(res.status, res.body.msg).toBe(200)
    }
    const form = new FormData()
    form.append('file', new Blob(['secret upload']), 'secret.txt')
    const upload = await server.call('POST', '/api/file-manage/upload-one-step', token, form)
    expect(upload.status, upload.body.msg).toBe(200)
    const changed = await server.call('PUT', '/api/user/password', token, {
      oldPassword: ADMIN_PASSWORD,
      newPassword: 'Second#Keeper2026x',
    })
    expect(changed.status, changed.body.msg).toBe(200)

    const entries = modesUnder(dataDir)
    // what the test is about is really there: the database, its write-ahead log, the upload, the lock
    const names = entries.map(([p]) => p)
    expect(names).toContain('pglite')
    expect(names.some((p) => p.startsWith('pglite/pg_wal/'))).toBe(true)
    expect(names.filter((p) => p.startsWith('files/'))).toHaveLength(1)
    expect(names).toContain('server.lock')
    expect(entries.filter(([, , kind]) => kind === 'other')).toEqual([])
    expect(loose(dataDir)).toEqual([])

    await server.stop()
    expect(loose(dataDir)).toEqual([])
  }, 300_000)

  it('tightens a directory left readable by others, keeping its data', async () => {
    const dataDir = path.join(root, 'fresh') // the previous test's, now loosened as an older version left it
    for (const [p, , kind] of modesUnder(dataDir))
      fs.chmodSync(path.join(dataDir, p), kind === 'dir' ? 0o777 : 0o666)
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'left by the operator', { mode: 0o644 })
    fs.chmodSync(path.join(dataDir, 'notes.txt'), 0o644)
    expect(loose(dataDir).length).toBeGreaterThan(100)

    const server = await startServer(dataDir)
    expect(loose(dataDir)).toEqual([])
    await server.login('Second#Keeper2026x') // the data survived
    await server.stop()
    expect(loose(dataDir)).toEqual([])
  }, 300_000)
})

describe('tightenTree', () => {
  it('removes group and other bits below the directory, keeps the owner’s, and follows no link', () => {
    const dir = fs.mkdtempSync(path.join(root, 'tree-'))
    const outside = fs.mkdtempSync(path.join(root, 'outside-'))
    fs.chmodSync(dir, 0o755)
    fs.chmodSync(outside, 0o755)
    fs.mkdirSync(path.join(dir, 'a/b'), { recursive: true, mode: 0o777 })
    fs.chmodSync(path.join(dir, 'a'), 0o777)
    fs.chmodSync(path.join(dir, 'a/b'), 0o775)
    fs.writeFileSync(path.join(dir, 'a/b/wal'), 'x')
    fs.chmodSync(path.join(dir, 'a/b/wal'), 0o666)
    fs.writeFileSync(path.join(dir, 'script'), 'x')
    fs.chmodSync(path.join(dir, 'script'), 0o755)
    fs.writeFileSync(path.join(outside, 'theirs'), 'x')
    fs.chmodSync(path.join(outside, 'theirs'), 0o644)
    fs.symlinkSync(outside, path.join(dir, 'link'))

    tightenTree(dir)
    const mode = (p: string) => fs.statSync(p).mode & 0o7777
    expect(mode(dir)).toBe(0o700)
    expect(mode(path.join(dir, 'a'))).toBe(0o700)
    expect(mode(path.join(dir, 'a/b'))).toBe(0o700)
    expect(mode(path.join(dir, 'a/b/wal'))).toBe(0o600)
    expect(mode(path.join(dir, 'script'))).toBe(0o700)
    // what a link points to is not the directory's own content
    expect(mode(outside)).toBe(0o755)
    expect(mode(path.join(outside, 'theirs'))).toBe(0o644)
  })
})
