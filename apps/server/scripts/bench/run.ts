/**
 * `npm run bench`: every speed figure of DESIGN.md §12 in one run, each against its peer measured in
 * the same run (a bare Fastify hello-world for throughput, node-casbin for the decision, nginx without
 * auth_request for the gateway's cost), printed as Markdown for docs/operations.md. Figures only: no
 * goal is asserted here, and nothing here runs in `npm test`.
 *
 * PostgreSQL figures need DATABASE_URL (or a server at 127.0.0.1:5432); without one they are skipped.
 * Sections can be chosen by name: `npm run bench -- events lists` (throughput, sign-in, decision,
 * scope, gateway, lists, org-writes, console, audit, events, import, instances, usage); none named, all of them.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { measureThroughput } from './throughput'
import { measureDecision } from './decision'
import { measureScope } from './scope'
import { measureGatewayLatency } from './gateway-latency'
import { measureSignInLoad } from './sign-in-load'
import { measureEvents } from './events'
import { measureSecondStep } from './second-step'
import { measureAudit } from '../measure-audit'
import { measureLists, type ListFigures } from '../measure-large-data'
import { bundleReport } from '../../../web/scripts/bundle-report'
import { measureFirstRow } from '../../../../e2e/measure-first-row'
import { measureImport } from './import'
import { measureInstances } from './instances'
import { kB, postgresUrl, table, withDatabaseUrl } from './report'
import { measureOrgWrites } from './org-writes'
import { measureUsage } from './usage'
import { measurePasskeyAssertions } from './passkey'

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist')
const CHROMIUM = '/usr/bin/chromium'

const out = (text: string) => console.log(`${text}\n`)

const SECTIONS = [
  'throughput',
  'sign-in',
  'decision',
  'scope',
  'gateway',
  'lists',
  'org-writes',
  'console',
  'audit',
  'events',
  'import',
  'instances',
  'usage',
  'passkey',
]
const chosen = process.argv.slice(2)
const unknown = chosen.filter((name) => !SECTIONS.includes(name))
if (unknown.length)
  throw new Error(`unknown section ${unknown.join(', ')}: choose among ${SECTIONS.join(', ')}`)
const want = (section: string) => chosen.length === 0 || chosen.includes(section)

async function main() {
  const pgUrl = await postgresUrl()
  const seconds = Number(process.env.BENCH_SECONDS ?? 5)
  out(`## npm run bench, ${new Date().toISOString().slice(0, 10)}`)
  out(
    `Node ${process.version}, ${pgUrl ? 'PGlite and PostgreSQL' : 'PGlite only (no PostgreSQL reachable)'}.`,
  )

  if (want('throughput')) {
    const throughput = await withDatabaseUrl(pgUrl, () => measureThroughput({ seconds }))
    out('### Throughput (20 connections, medians of 5 interleaved rounds)')
    out(
      table(
        ['call', 'engine', 'req/s', 'p99 ms', 'of bare Fastify', 'server CPU µs/req'],
        throughput.map((f) => [f.name, f.engine, f.reqPerSec, f.p99Ms, `${f.ofBare}%`, f.serverCpuUs ?? '—']),
      ),
    )
  }

  if (want('usage')) {
    // DESIGN.md §21: recording each allowed decision's nodes must not slow the gateway down
    const usage = await measureUsage({ seconds })
    out('### Forward auth with usage recorded (PGlite, 20 connections, medians of interleaved rounds)')
    out(
      table(
        ['call', 'req/s', 'of the same without recording'],
        usage.map((f) => [f.name, f.reqPerSec, `${f.ofWithout}%`]),
      ),
    )
  }

  if (want('instances')) {
    // DESIGN.md §19: the same forward auth through nginx's upstream, one instance against three
    out(
      '### Forward auth through nginx, one instance and three on one PostgreSQL (60 connections, medians of 3 interleaved rounds)',
    )
    const instances = await measureInstances({ seconds })
    out(
      'skipped' in instances
        ? instances.skipped
        : table(
            ['instances', 'req/s', 'p99 ms', 'of one instance'],
            instances.figures.map((f) => [
              f.instances,
              f.reqPerSec,
              f.p99Ms,
              `${Math.round((f.reqPerSec / instances.figures[0].reqPerSec) * 1000) / 10}%`,
            ]),
          ),
    )
  }

  if (want('sign-in')) {
    const signIns = await measureSignInLoad({ seconds })
    out(
      `### Forward auth while ${signIns.signIns.concurrent} sign-ins hash passwords (scrypt N=2^${signIns.hashCost}, PGlite, medians of 3 interleaved rounds)`,
    )
    out(
      table(
        ['forward auth', 'req/s', 'p99 ms', 'of quiet', 'sign-ins/s', 'sign-ins refused (503)'],
        [
          ['quiet', signIns.quiet.reqPerSec, signIns.quiet.p99Ms, '100%', '–', '–'],
          [
            `with ${signIns.signIns.concurrent} sign-ins`,
            signIns.withSignIns.reqPerSec,
            signIns.withSignIns.p99Ms,
            `${signIns.throughputPct}%`,
            signIns.signIns.perSecond,
            signIns.signIns.refused,
          ],
        ],
      ),
    )
    const secondStep = await measureSecondStep()
    out(
      `### Second step of sign-in (POST /login/mfa with a TOTP code, PGlite, ${secondStep.rounds} rounds; goal < 20 ms)`,
    )
    out(table(['median ms', 'p90 ms'], [[secondStep.medianMs, secondStep.p90Ms]]))
  }

  if (want('decision')) {
    const decision = await measureDecision()
    out(`### Authorization decision in process (${decision.rules.toLocaleString()} rules)`)
    out(
      table(
        [
          'ours, warm',
          'ours, warm, half the links expiring',
          'ours, first call for a user (loads from the database)',
          'node-casbin',
          'ratio',
        ],
        [
          [
            `${decision.oursWarmUs} µs`,
            `${decision.oursWarmExpiringUs} µs`,
            `${decision.oursColdMs} ms`,
            `${decision.casbinMs} ms`,
            `${decision.timesFaster}×`,
          ],
        ],
      ),
    )
  }

  if (want('scope')) {
    const scope = await measureScope()
    out(
      `### Data scope of a call in process (${scope.departments.toLocaleString()} departments; goal < 10 µs warm)`,
    )
    out(
      table(
        ['scope, warm', 'decision alone, warm', 'scope, first call for a user'],
        [[`${scope.warmUs} µs`, `${scope.decisionUs} µs`, `${scope.coldMs} ms`]],
      ),
    )
  }

  if (want('gateway')) {
    const gateway = await measureGatewayLatency(seconds)
    out('### nginx auth_request (one connection, mean latency)')
    out(
      gateway
        ? table(
            ['plain proxy', 'with auth_request', 'added', 'p99 plain / with'],
            [
              [
                `${gateway.plainMeanMs} ms`,
                `${gateway.withAuthMeanMs} ms`,
                `${gateway.addedMs} ms`,
                `${gateway.plainP99Ms} / ${gateway.withAuthP99Ms} ms`,
              ],
            ],
          )
        : 'nginx is not installed: skipped.',
    )
  }

  if (want('lists')) {
    const lists: ListFigures = await measureLists({ postgresUrl: pgUrl })
    out(
      '### Lists and trees at 100,000 users, 10,000 departments, 10,000 groups (ms: first call / warm median)',
    )
    const engines = (['pglite', 'postgres'] as const).filter((e) => lists[e])
    out(
      table(
        ['call', ...engines],
        Object.keys(lists[engines[0]] ?? {}).map((label) => [
          label,
          ...engines.map(
            (e) => `${lists[e]![label].first.toFixed(1)} / ${lists[e]![label].median.toFixed(1)}`,
          ),
        ]),
      ),
    )
  }

  if (want('org-writes')) {
    const inserts = Number(process.env.ORG_BENCH_INSERTS ?? 100)
    const writes = await measureOrgWrites({ postgresUrl: pgUrl, inserts })
    out(
      `### Department inserts through the API at 10 and 10,000 departments (${inserts} each place, one at a time; goal < 5 ms, the same at both sizes)`,
    )
    out(
      table(
        [
          'engine',
          'departments',
          'insert at the top, median / mean',
          'insert deep down, median / mean',
          'whole tree after: first read / warm',
        ],
        writes.map((w) => [
          w.engine,
          w.departments.toLocaleString('en'),
          `${w.topMs.median} / ${w.topMs.mean} ms`,
          `${w.deepMs.median} / ${w.deepMs.mean} ms`,
          `${w.treeFirstMs} / ${w.treeWarmMs} ms`,
        ]),
      ),
    )
  }

  if (want('console')) {
    out('### Console')
    if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) out('No built console (`npm run build`): skipped.')
    else {
      const bundle = bundleReport(WEB_DIST)
      const firstRow = fs.existsSync(CHROMIUM) ? await measureFirstRow({ webDist: WEB_DIST }) : undefined
      out(
        table(
          [
            'initial JS raw / gzip / brotli',
            'initial CSS gzip',
            'screens loaded on demand (gzip)',
            'sign-in → first row',
          ],
          [
            [
              `${kB(bundle.initialJs.raw)} / ${kB(bundle.initialJs.gzip)} / ${kB(bundle.initialJs.brotli)}`,
              kB(bundle.initialCss.gzip),
              `${kB(bundle.lazyJs.gzip)} in ${bundle.lazyJs.files} files`,
              firstRow
                ? `${firstRow.medianMs} ms (median of ${firstRow.runsMs.length})`
                : 'no Chromium: skipped',
            ],
          ],
        ),
      )
    }
  }

  if (want('audit')) {
    out(
      '### Audit trail (a write with its log row against the same write without; the log list at 1,000,000 rows)',
    )
    const audits = []
    audits.push(await withDatabaseUrl(undefined, () => measureAudit({ rows: 1_000_000, writes: 300 })))
    if (pgUrl) audits.push(await withDatabaseUrl(pgUrl, () => measureAudit({ rows: 1_000_000, writes: 300 })))
    out(
      table(
        [
          'engine',
          'write with log',
          'without',
          'overhead',
          ...Object.keys(audits[0].list).map((k) => `list: ${k}`),
        ],
        audits.map((a) => [
          a.engine,
          `${a.writeWithLogMs} ms`,
          `${a.writeWithoutLogMs} ms`,
          `${a.overheadPct}%`,
          ...Object.values(a.list).map((v) => `${v} ms`),
        ]),
      ),
    )
  }

  if (want('events')) {
    const events = await measureEvents({ postgresUrl: pgUrl, writes: 200 })
    out(
      "### Change events (a write's event at a local receiver, default worker interval; a write with its events against the same write without)",
    )
    out(
      table(
        ['engine', 'answer → receiver p50 / p95 / max', 'write with events', 'without', 'overhead'],
        events.map((e) => [
          e.engine,
          `${e.latency.p50Ms} / ${e.latency.p95Ms} / ${e.latency.maxMs} ms (${e.latency.writes} writes)`,
          `${e.write.withEventsMs} ms`,
          `${e.write.withoutMs} ms`,
          `${e.write.overheadPct}%`,
        ]),
      ),
    )
  }

  if (want('import')) {
    // DESIGN.md §15's goal is 100,000 rows; IMPORT_BENCH_ROWS sets fewer while the import is far slower
    const importRows = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000)
    out(`### Import and export of ${importRows.toLocaleString('en')} users (position, role and group each)`)
    const imports = await measureImport({ postgresUrl: pgUrl, rows: importRows })
    out(
      table(
        ['engine', 'import', 'rows/s', 'per row', 'memory growth', 'export', 'inserted / failed'],
        (['pglite', 'postgres'] as const)
          .filter((e) => imports[e])
          .map((e) => {
            const f = imports[e]!
            return [
              e,
              `${f.importSeconds.toFixed(1)} s`,
              Math.round(f.rows / f.importSeconds),
              `${((f.importSeconds * 1000) / f.rows).toFixed(1)} ms`,
              `${f.growthMb.toFixed(0)} MB`,
              `${f.exportSeconds.toFixed(1)} s`,
              `${f.inserted} / ${f.failed}`,
            ]
          }),
      ),
    )
  }
  if (want('passkey')) {
    const passkey = await measurePasskeyAssertions({ seconds })
    out('### Passkey assertions verified (DESIGN.md §23; goal ≥ 300 per second per core)')
    out(
      table(
        ['assertions', 'per second', 'per CPU second'],
        [[passkey.assertions, passkey.perSecond, passkey.perCoreSecond]],
      ),
    )
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
