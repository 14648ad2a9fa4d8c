import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * Starting and stopping the real gateway processes on free ports, with the committed templates filled
 * in. No test runner here: the measuring scripts start the same gateways.
 */

/** A committed file under deploy/, e.g. `nginx/auth-request.conf`. */
export const deployFile = (rel: string) =>
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy', rel)

/** A template with each `__NAME__` placeholder replaced; an unfilled one is an error. */
export function fillTemplate(file: string, values: Record<string, string>): string {
  let text = fs.readFileSync(file, 'utf8')
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`__${name}__`, value)
  const left = /__[A-Z]+__/.exec(text)
  if (left) throw new Error(`${file}: placeholder ${left[0]} not filled`)
  return text
}

/** A port free right now (the kernel picks it; a tiny race with other processes is accepted). */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Waits until `child` accepts connections on 127.0.0.1:`port`; fails with its log if it exits. */
export async function waitForPort(port: number, child: ChildProcess, name: string, log: string) {
  const readLog = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '')
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}): ${readLog()}`)
    }
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)))
      s.on('error', () => resolve(false))
    })
    if (open) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${name} did not listen on ${port}: ${readLog()}`)
}

/** Stops a child process: `signal` first, SIGKILL if it is still there after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}
