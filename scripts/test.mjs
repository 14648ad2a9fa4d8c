// `npm test`: every suite — contract and console units, the API suite on PGlite, the same API suite on
// PostgreSQL when one is reachable (a fresh database per run, dropped after), then end-to-end in Chromium.
// Ends with one summary line 'N passed, N failed'.
//
// Each suite runs its files one after another (one worker: the fault, race and two-instance tests are
// timed for it), so two lanes share the two cores: the API suite on PGlite in one, the units then the
// API suite on PostgreSQL in the other (their output printed whole when each ends); end-to-end runs
// last, alone with the browser.
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

const suites = [
  { name: 'unit (contract, web)', args: ['--project', 'contract', '--project', 'web'], env: {} },
  { name: 'api on PGlite', args: ['--project', 'server'], env: { TEST_DATABASE_URL: '' } },
  ...(pgReachable && process.env.SKIP_POSTGRES !== '1'
    ? [{ name: 'api on PostgreSQL', args: ['--project', 'server'], env: { TEST_DATABASE_URL: pgUrl } }]
    : []),
  ...(process.env.SKIP_E2E === '1'
    ? []
    : [{ name: 'end-to-end in Chromium', args: ['--project', 'e2e'], env: {} }]),
]
if (!pgReachable) console.log(`PostgreSQL not reachable at ${pgUrl}: the API suite runs on PGlite only.`)

let passed = 0
let failed = 0
let skipped = 0
let broken = false
// named again at the end, so the last lines of a long run say what failed
const failures = []
const retried = []

/** Runs one suite; `quiet`: its output is kept and printed whole at the end, not mixed with another's. */
function runSuite(suite, i, quiet) {
  const out = path.join(reports, `suite-${i}.json`)
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
      {
        cwd: root,
        stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: { ...process.env, ...suite.env },
      },
    )
    let printed = ''
    if (quiet) {
      child.stdout.on('data', (d) => (printed += d))
      child.stderr.on('data', (d) => (printed += d))
    } else console.log(`\n=== ${suite.name} ===`)
    child.on('close', (status) => {
      if (quiet) console.log(`\n=== ${suite.name} ===\n${printed}`)
      console.log(`${suite.name}: ${Math.round((Date.now() - started) / 1000)} s`)
      resolve({ suite, out, status })
    })
  })
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

const indexed = suites.map((suite, i) => ({ suite, i }))
const beside = indexed.filter(({ suite }) =>
  ['unit (contract, web)', 'api on PostgreSQL'].includes(suite.name),
)
const browser = indexed.filter(({ suite }) => suite.name === 'end-to-end in Chromium')
const first = indexed.filter((x) => !beside.includes(x) && !browser.includes(x))
const lane = async (items, quiet) => {
  const results = []
  for (const { suite, i } of items) results.push(await runSuite(suite, i, quiet))
  return results
}
const [mainLane, besideLane] = await Promise.all([lane(first, false), lane(beside, true)])
;[...mainLane, ...besideLane].forEach(count)
;(await lane(browser, false)).forEach(count)

if (retried.length) console.log(`\nPassed on a second try:\n${retried.join('\n')}`)
if (failures.length) console.log(`\nFailed:\n${failures.join('\n')}`)
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0)
