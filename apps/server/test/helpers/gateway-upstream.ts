import fs from 'node:fs'
import http, { type IncomingHttpHeaders } from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * The two small servers around a gateway in the gateway tests (DESIGN.md §10a), and a raw HTTP/1.1
 * client: fetch normalises URLs (`..` resolved, `\` turned into `/`), so a test that must send
 * `/public/..%2fadmin` exactly writes the request line itself.
 */

export const PUBLIC_TEXT = 'public readme: anyone holding GET /public/** may read this'
export const SECRET_TEXT = 'ADMIN-SECRET-7f3a: only administrators may read this'

export interface ReceivedCall {
  url: string
  headers: IncomingHttpHeaders
}

/**
 * The protected service: a static file server as it is commonly written: the URL read by the WHATWG
 * parser, its path percent-decoded once and joined to the root (`path.join` resolves `..`). It holds
 * `/public/readme.txt` and `/admin/secret.txt`; any other path answers an echo of who the gateway
 * says the user is. Every request it receives is noted, headers included.
 */
export async function startStaticUpstream() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-upstream-'))
  fs.mkdirSync(path.join(root, 'public'))
  fs.mkdirSync(path.join(root, 'admin'))
  fs.writeFileSync(path.join(root, 'public', 'readme.txt'), PUBLIC_TEXT)
  fs.writeFileSync(path.join(root, 'admin', 'secret.txt'), SECRET_TEXT)
  const received: ReceivedCall[] = []
  const server = http.createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers })
    const file = fileFor(root, req.url ?? '/')
    if (file) {
      res.setHeader('content-type', 'text/plain; charset=utf-8')
      res.end(fs.readFileSync(file))
      return
    }
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        userId: req.headers['x-auth-user-id'] ?? null,
        userName: req.headers['x-auth-user-name'] ?? null,
        dataScope: req.headers['x-auth-data-scope'] ?? null,
        path: req.url,
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      fs.rmSync(root, { recursive: true, force: true })
    },
  }
}

function fileFor(root: string, url: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(new URL(url, 'http://upstream').pathname)
  } catch {
    return null
  }
  const file = path.join(root, decoded)
  if (!file.startsWith(root + path.sep)) return null
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null
  } catch {
    // a path that goes on below a file (`readme.txt/x`) is ENOTDIR: not found, as for any file server
    return null
  }
}

/**
 * A pass-through in front of this server: every request goes on unchanged, and the URI header of
 * each forward-auth question (nginx's X-Original-URI, Caddy's X-Forwarded-Uri) is noted, so a test
 * knows which path a decision was made on.
 */
export async function startRecordingProxy(targetPort: number) {
  const asked: string[] = []
  const server = http.createServer((req, res) => {
    const uri = req.headers['x-original-uri'] ?? req.headers['x-forwarded-uri']
    if (typeof uri === 'string') asked.push(uri)
    const onward = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    onward.on('error', () => res.destroy())
    req.pipe(onward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export interface RawAnswer {
  status: number
  body: string
}

/**
 * One request written byte for byte: `GET <target> HTTP/1.1`, the headers given (a name may come
 * twice; values are written as Latin-1 bytes, the target as UTF-8), then the answer read to its end.
 */
export function rawRequest(
  port: number,
  target: string,
  headers: [string, string][] = [],
  method = 'GET',
): Promise<RawAnswer> {
  const head = Buffer.concat([
    Buffer.from(`${method} `, 'latin1'),
    Buffer.from(target, 'utf8'),
    Buffer.from(
      ` HTTP/1.1\r\nHost: gateway.test\r\nConnection: close\r\n${headers
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
      'latin1',
    ),
  ])
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head))
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      if (!status) return reject(new Error(`no HTTP answer to ${method} ${target}: ${JSON.stringify(text)}`))
      const split = text.indexOf('\r\n\r\n')
      resolve({ status: Number(status[1]), body: split < 0 ? '' : text.slice(split + 4) })
    })
  })
}
