// `npm test`: every suite — contract and console units, the API suite on PGlite, the API suite on
// PostgreSQL when one is reachable (a fresh database per run, dropped after), and end-to-end in Chromium.
// Ends with one summary line 'N passed, N failed'.
//
// Each suite runs its files one after another (one worker: the fault, race and two-instance tests are
// timed for it), so two lanes share the two cores. Lane one: the API suite on PGlite, then half of the
// end-to-end files. Lane two: the units, the API suite's random call sequences on PGlite, the API suite on
// PostgreSQL, then the other half of the end-to-end files. Each end-to-end half has its own server and
// browser; the console is built once, before both. Lane one prints as it goes; lane two's suites are
// printed whole as each ends.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const reports = path.join(root, '.vitest-reports')
fs.rmSync(reports, { recursive: true, force: true })
fs.mkdirSync(reports, { recursive: true })

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const pgReachable = await new Promise((resolve) => {
  const u = new URL(pgUrl)
  const socket = net.connect({ host: u.hostname, port: Number(u.port || 5432) })
  socket.setTimeout(2000)
  socket.on('connect', () => (socket.destroy(), resolve(true)))
  socket.on('error', () => resolve(false))
  socket.on('timeout', () => (socket.destroy(), resolve(false)))
})

/**
 * API test files whose subject does not depend on the database engine: random call sequences checking
 * rules that live in the server's code, HTTP-level hardening, the route table, the gateways, hashing,
 * the embedded data directory. They run on PGlite only; every other API file runs on both engines.
 */
const ENGINE_INDEPENDENT = [
  'escalation-property',
  'stored-power-property',
  'data-scope-enforce-property',
  'service-namespace-property',
  'fuzz',
  'authz-canonical-path',
  'data-scope-alphabet',
  'hardening',
  'compression',
  'console-static',
  'logging',
  'can-call',
  'seed-tree',
  'secret-box',
  'password',
  'hash-queue',
  'webhook-target',
  'gateway-nginx',
  'gateway-caddy',
  'data-dir-lock',
  'data-dir-modes',
  'pglite-upkeep',
]

const e2e = (shard) => ({
  name: `end-to-end in Chromium (${shard})`,
  args: ['--project', 'e2e', `--shard=${shard}`],
  // the console built once for both halves (below)
  env: { E2E_SKIP_BUILD: '1' },
  needsBuild: true,
})
const withE2e = process.env.SKIP_E2E !== '1'
const withPostgres = pgReachable && process.env.SKIP_POSTGRES !== '1'
if (!pgReachable) console.log(`PostgreSQL not reachable at ${pgUrl}: the API suite runs on PGlite only.`)

/**
 * Of those, the random call sequences: run in lane two, on PGlite still, so that lane one (the whole API
 * suite on PGlite, the longer of the two API suites) and lane two end near the same time.
 */
const IN_LANE_TWO = ['escalation-property', 'fuzz']
const apiFile = (name) => `apps/server/test/${name}.test.ts`

const laneOne = [
  {
    name: 'api on PGlite',
    args: ['--project', 'server', ...IN_LANE_TWO.flatMap((name) => ['--exclude', apiFile(name)])],
    env: { TEST_DATABASE_URL: '' },
  },
  ...(withE2e ? [e2e('1/2')] : []),
]
const laneTwo = [
  { name: 'unit (contract, web)', args: ['--project', 'contract', '--project', 'web'], env: {} },
  {
    name: 'api on PGlite (random call sequences)',
    args: ['--project', 'server', ...IN_LANE_TWO.map(apiFile)],
    env: { TEST_DATABASE_URL: '' },
  },
  ...(withPostgres
    ? [
        {
          name: 'api on PostgreSQL',
          args: [
            '--project',
            'server',
            ...ENGINE_INDEPENDENT.flatMap((name) => ['--exclude', apiFile(name)]),
          ],
          env: { TEST_DATABASE_URL: pgUrl },
        },
      ]
    : []),
  ...(withE2e ? [e2e('2/2')] : []),
]

let passed = 0
let failed = 0
let skipped = 0
let broken = false
// named again at the end, so the last lines of a long run say what failed
const failures = []
const retried = []
let suiteNumber = 0

/** Runs `command` to its end; `quiet`: its output is kept and answered rather than printed. */
function run(command, args, env, quiet) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    })
    let printed = ''
    if (quiet) {
      child.stdout.on('data', (d) => (printed += d))
      child.stderr.on('data', (d) => (printed += d))
    }
    child.on('close', (status) => resolve({ status, printed }))
  })
}

// The console the end-to-end halves serve, built (and precompressed) once.
const built = withE2e
  ? run('npm', ['run', 'build'], {}, true).then(({ status, printed }) => {
      if (status !== 0) console.log(`\n=== console build ===\n${printed}`)
      return status === 0
    })
  : Promise.resolve(true)

/** Runs one suite; `quiet`: its output is printed whole when it ends, not mixed with the other lane's. */
async function runSuite(suite, quiet) {
  const out = path.join(reports, `suite-${suiteNumber++}.json`)
  if (suite.needsBuild && !(await built)) {
    console.log(`${suite.name}: not run, the console did not build`)
    broken = true
    return { suite, out, status: 1 }
  }
  const started = Date.now()
  if (!quiet) console.log(`\n=== ${suite.name} ===`)
  const { status, printed } = await run(
    'npx',
    ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    suite.env,
    quiet,
  )
  if (quiet) console.log(`\n=== ${suite.name} ===\n${printed}`)
  console.log(`${suite.name}: ${Math.round((Date.now() - started) / 1000)} s`)
  return { suite, out, status }
}

function count({ suite, out, status }) {
  if (!fs.existsSync(out)) {
    console.log(`${suite.name}: the runner produced no report (exit ${status})`)
    broken = true
    return
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + (report.numTodoTests ?? 0)
  if (status !== 0) broken = true
  for (const file of report.testResults ?? []) {
    // a file whose setup failed has no failed test, only skipped ones: named here all the same
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')) {
      const why = String(file.message ?? '')
        .split('\n')
        .slice(0, 3)
        .join(' | ')
      failures.push(
        `${suite.name}: ${path.relative(root, file.name)} failed outside its tests\n    ${why || 'its error is printed above (a hook or the file itself)'}`,
      )
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'passed' && test.failureMessages?.length) {
        retried.push(`${suite.name}: ${path.relative(root, file.name)} > ${test.fullName}`)
      }
      if (test.status !== 'failed') continue
      const why = String(test.failureMessages?.[0] ?? '')
        .split('\n')
        .slice(0, 3)
        .join(' | ')
      failures.push(`${suite.name}: ${path.relative(root, file.name)} > ${test.fullName}\n    ${why}`)
    }
  }
}

const lane = async (suites, quiet) => {
  const results = []
  for (const suite of suites) results.push(await runSuite(suite, quiet))
  return results
}
const started = Date.now()
const [one, two] = await Promise.all([lane(laneOne, false), lane(laneTwo, true)])
;[...one, ...two].forEach(count)

if (retried.length) console.log(`\nPassed on a second try:\n${retried.join('\n')}`)
if (failures.length) console.log(`\nFailed:\n${failures.join('\n')}`)
console.log(`\nAll suites: ${Math.round((Date.now() - started) / 1000)} s`)
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0)
