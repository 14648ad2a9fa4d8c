import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from 'ldapts'
import { expect } from 'vitest'
import type { ImportJob } from '@amg/contract'
import type { TestApp } from './app'
import { freePort, stopChild, waitForPort } from './processes'

/**
 * A real OpenLDAP server for the directory sync's tests (DESIGN.md §22): Debian's slapd with an mdb
 * database in a temporary directory, loaded offline with slapadd from an LDIF the test writes (which
 * gives each entry its entryUUID), on a free port. Stopped and removed by `stop`.
 */
export const SUFFIX = 'dc=example,dc=com'
export const ROOT_DN = `cn=admin,${SUFFIX}`
export const ROOT_PASSWORD = 'ldap-root-secret'

export interface Slapd {
  url: string
  /** a client bound as the directory's administrator, for changing entries in a test */
  admin(): Promise<Client>
  stop(): Promise<void>
}

export interface Person {
  uid: string | null
  cn: string
  mobile?: string
  password?: string
  /** OU names top first */
  ous: string[]
}

export const personDn = (p: Pick<Person, 'cn' | 'ous'>) =>
  [`cn=${p.cn}`, ...[...p.ous].reverse().map((ou) => `ou=${ou}`), SUFFIX].join(',')

/** The LDIF of the base, the OUs the people name, the people and the groups. */
export function ldifOf(people: Person[], groups: { cn: string; members: string[] }[]): string {
  const out: string[] = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example\n`,
    `dn: ou=groups,${SUFFIX}\nobjectClass: organizationalUnit\nou: groups\n`,
  ]
  const ous = new Set<string>()
  for (const p of people)
    for (let i = 1; i <= p.ous.length; i++) {
      const prefix = p.ous.slice(0, i)
      const dn = [...prefix]
        .reverse()
        .map((ou) => `ou=${ou}`)
        .concat(SUFFIX)
        .join(',')
      if (ous.has(dn)) continue
      ous.add(dn)
      out.push(`dn: ${dn}\nobjectClass: organizationalUnit\nou: ${prefix.at(-1)}\n`)
    }
  for (const p of people) {
    const lines = [`dn: ${personDn(p)}`, 'objectClass: inetOrgPerson', `cn: ${p.cn}`, `sn: ${p.cn}`]
    if (p.uid) lines.push(`uid: ${p.uid}`)
    if (p.mobile) lines.push(`mobile: ${p.mobile}`)
    if (p.password) lines.push(`userPassword: ${p.password}`)
    out.push(lines.join('\n') + '\n')
  }
  for (const g of groups)
    out.push(
      [
        `dn: cn=${g.cn},ou=groups,${SUFFIX}`,
        'objectClass: groupOfNames',
        `cn: ${g.cn}`,
        ...g.members.map((m) => `member: ${m}`),
      ].join('\n') + '\n',
    )
  return out.join('\n')
}

export async function startSlapd(ldif: string): Promise<Slapd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-slapd-'))
  fs.mkdirSync(path.join(dir, 'data'))
  const conf = path.join(dir, 'slapd.conf')
  fs.writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/nis.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      // a plain search answers at most 500 entries; a paged one reads them all (RFC 2696)
      'sizelimit size.soft=500 size.hard=500 size.prtotal=unlimited',
      'database mdb',
      'maxsize 1073741824',
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${dir}/data`,
      'index objectClass eq',
      'index uid,cn eq',
      'index entryUUID eq',
      '',
    ].join('\n'),
  )
  const file = path.join(dir, 'data.ldif')
  fs.writeFileSync(file, ldif)
  const added = spawnSync('/usr/sbin/slapadd', ['-q', '-f', conf, '-l', file], { encoding: 'utf8' })
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`)
  const port = await freePort()
  const log = path.join(dir, 'slapd.log')
  const out = fs.openSync(log, 'w')
  const child: ChildProcess = spawn(
    '/usr/sbin/slapd',
    ['-h', `ldap://127.0.0.1:${port}/`, '-f', conf, '-d', '0'],
    {
      stdio: ['ignore', out, out],
    },
  )
  await waitForPort(port, child, 'slapd', log)
  const url = `ldap://127.0.0.1:${port}`
  return {
    url,
    async admin() {
      const client = new Client({ url })
      await client.bind(ROOT_DN, ROOT_PASSWORD)
      return client
    },
    async stop() {
      await stopChild(child, 'SIGTERM')
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Starts a sync and follows it with the import's job call until it ends. */
export async function runSync(app: TestApp, dryRun: boolean): Promise<ImportJob> {
  const started = await app.call('POST', '/api/directory/sync', { token: app.adminToken, body: { dryRun } })
  expect(started.status, started.body.msg).toBe(200)
  for (;;) {
    const job = await app.call<ImportJob>('GET', '/api/import/job', {
      token: app.adminToken,
      query: { jobId: started.body.data.jobId },
    })
    expect(job.status).toBe(200)
    if (job.body.data.status !== 'running') return job.body.data
    await new Promise((r) => setTimeout(r, 50))
  }
}
