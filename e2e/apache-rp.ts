import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Debian's Apache and its OpenID Connect module (package libapache2-mod-auth-openidc). */
export const APACHE_BIN = process.env.APACHE_BIN || '/usr/sbin/apache2'
const MODULES = process.env.APACHE_MODULES || '/usr/lib/apache2/modules'

export function apacheAvailable(): boolean {
  return fs.existsSync(APACHE_BIN) && fs.existsSync(path.join(MODULES, 'mod_auth_openidc.so'))
}

export interface RelyingPartyOptions {
  port: number
  /** our issuer, `${PUBLIC_URL}/oidc` */
  issuer: string
  clientId: string
  clientSecret: string
}

/**
 * A relying party we did not write: Apache with mod_auth_openidc in a folder of its own (config,
 * pid, logs, documents), on 127.0.0.1:`port`. `/protected/` needs an OpenID Connect sign-in; its page
 * is a server-side include that prints what the module learned (the ID token's and userinfo's
 * claims, the access token). The access token is refreshed on every request (it lives 600 s, less
 * than the hour asked for), so each page load exercises the refresh grant, and a refused refresh
 * sends the browser to sign in again.
 */
export function writeApacheConfig(dir: string, o: RelyingPartyOptions) {
  const docs = path.join(dir, 'htdocs')
  fs.mkdirSync(path.join(docs, 'protected'), { recursive: true })
  fs.writeFileSync(
    path.join(docs, 'protected', 'claims.shtml'),
    `<!doctype html>
<html><head><meta charset="utf-8"><title>Apache 受保护页面</title></head>
<body>
<h1>Apache 受保护页面</h1>
<dl>
<dt>preferred_username</dt><dd id="preferred_username"><!--#echo var="OIDC_CLAIM_preferred_username" --></dd>
<dt>sub</dt><dd id="sub"><!--#echo var="OIDC_CLAIM_sub" --></dd>
<dt>roles</dt><dd id="roles"><!--#echo var="OIDC_CLAIM_roles" --></dd>
<dt>iss</dt><dd id="iss"><!--#echo var="OIDC_CLAIM_iss" --></dd>
<dt>access_token</dt><dd id="access_token"><!--#echo var="OIDC_access_token" --></dd>
</dl>
</body></html>
`,
  )
  const load = (name: string, file: string) => `LoadModule ${name} ${path.join(MODULES, file)}`
  const conf = `# written by the end-to-end test; nothing of the system's Apache configuration is read
ServerRoot "${dir}"
DefaultRuntimeDir "${dir}"
PidFile "${dir}/httpd.pid"
ErrorLog "${dir}/error.log"
LogLevel warn auth_openidc:info
Mutex file:${dir} default
Listen 127.0.0.1:${o.port}
ServerName localhost:${o.port}
${load('mpm_prefork_module', 'mod_mpm_prefork.so')}
${load('authn_core_module', 'mod_authn_core.so')}
${load('authz_core_module', 'mod_authz_core.so')}
${load('authz_user_module', 'mod_authz_user.so')}
${load('mime_module', 'mod_mime.so')}
${load('include_module', 'mod_include.so')}
${load('auth_openidc_module', 'mod_auth_openidc.so')}
TypesConfig /dev/null
DocumentRoot "${docs}"

OIDCProviderMetadataURL ${o.issuer}/.well-known/openid-configuration
OIDCClientID ${o.clientId}
OIDCClientSecret ${o.clientSecret}
OIDCRedirectURI http://localhost:${o.port}/protected/callback
OIDCCryptoPassphrase ${crypto.randomBytes(24).toString('hex')}
OIDCPKCEMethod S256
OIDCScope "openid profile roles permissions"
OIDCRefreshAccessTokenBeforeExpiry 3600 logout_on_error

<Directory "${docs}/protected">
  AuthType openid-connect
  Require valid-user
  Options +Includes
  AddType "text/html; charset=utf-8" .shtml
  AddOutputFilter INCLUDES .shtml
</Directory>
<Location /protected/callback>
  AuthType openid-connect
  Require valid-user
</Location>
`
  const file = path.join(dir, 'httpd.conf')
  fs.writeFileSync(file, conf)
  return file
}

/** Starts Apache in the foreground on its config and answers once it accepts connections. */
export async function startApache(o: RelyingPartyOptions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-apache-'))
  // started as root, Apache serves from children of an unprivileged user: they must read the page
  fs.chmodSync(dir, 0o755)
  const conf = writeApacheConfig(dir, o)
  // the client secret stays readable by the parent only, which alone reads the configuration
  fs.chmodSync(conf, 0o600)
  const check = spawn(APACHE_BIN, ['-t', '-f', conf])
  const checkOut: string[] = []
  check.stderr.on('data', (d: Buffer) => checkOut.push(d.toString()))
  const code = await new Promise<number | null>((r) => check.once('exit', r))
  if (code !== 0) throw new Error(`apache2 -t: ${checkOut.join('')}`)
  // a process group of its own: on SIGTERM Apache's parent signals its whole group, which would
  // otherwise be the test runner's
  const proc: ChildProcess = spawn(APACHE_BIN, ['-f', conf, '-DFOREGROUND'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  })
  const base = `http://localhost:${o.port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`apache2 exited with ${proc.exitCode}: ${errorLog(dir)}`)
    try {
      await fetch(`${base}/`)
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`apache2 did not answer: ${errorLog(dir)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    base,
    errorLog: () => errorLog(dir),
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM')
        await new Promise((resolve) => {
          proc.once('exit', resolve)
          setTimeout(resolve, 5000)
        })
      }
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

function errorLog(dir: string) {
  try {
    return fs.readFileSync(path.join(dir, 'error.log'), 'utf8')
  } catch {
    return ''
  }
}
