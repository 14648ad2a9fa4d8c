// `npm start`: build the console when it is missing or older than its sources, then run the server.
// SKIP_CONSOLE_BUILD=1 runs the server as it is (the console as last built, or none).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'apps/web/dist/index.html')

// A stop (a container's SIGTERM, Ctrl+C) goes to the server, which closes its database and exits; this
// script then exits with it. One that comes before the server runs (during the build) ends here.
let server = null
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server) server.kill(signal)
    else process.exit(128 + os.constants.signals[signal])
  })
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

const sources = [path.join(root, 'apps/web/src'), path.join(root, 'packages/contract/src')]
const stale = !fs.existsSync(dist) || sources.some((dir) => newestMtime(dir) > fs.statSync(dist).mtimeMs)
if (stale && process.env.SKIP_CONSOLE_BUILD !== '1') {
  console.log('Building the console (apps/web) ...')
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' })
}

server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
  cwd: root,
  stdio: 'inherit',
})
// the server's own exit status; one ended by a signal exits as a shell reports it (128 + the signal)
server.on('exit', (code, signal) =>
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)),
)
