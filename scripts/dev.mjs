// `npm run dev`: the API server with reload on 8080 and the Vite dev server on 8081 (proxying /api).
import { spawn } from 'node:child_process'

const children = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { stdio: 'inherit' }),
]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
