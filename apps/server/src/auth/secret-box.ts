import fs from 'node:fs'
import path from 'node:path'
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import { PRIVATE_FILE_MODE } from '../db/private-files'

/**
 * Secrets at rest (DESIGN.md §14): TOTP keys are stored encrypted with AES-256-GCM, and recovery codes
 * as HMAC-SHA-256 under a key derived from the same master key, so a copy of the database alone
 * neither shows a TOTP key nor lets a recovery code be guessed offline.
 *
 * The master key is MFA_SECRET_KEY (32 bytes, hex or base64) or, without it, a random key kept in the
 * data directory (readable by the server's user only), made on first use.
 */
export class SecretBox {
  private readonly encKey: Buffer
  private readonly macKey: Buffer

  constructor(master: Buffer) {
    if (master.length !== 32) throw new Error('MFA_SECRET_KEY 必须是 32 字节（64 个十六进制字符或 base64）')
    this.encKey = createHmac('sha256', master).update('totp-secret').digest()
    this.macKey = createHmac('sha256', master).update('recovery-code').digest()
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url */
  seal(plain: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv)
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.')
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.')
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unreadable sealed secret')
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
  }

  /** The keyed hash a recovery code is stored and looked up as. */
  mac(text: string): string {
    return createHmac('sha256', this.macKey).update(text).digest('hex')
  }
}

const KEY_FILE = 'mfa-secret.key'

function parseKey(text: string): Buffer {
  const t = text.trim()
  return /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64')
}

/** The configured key, or the data directory's key file (made when missing). */
export function loadSecretBox(config: { mfaSecretKey: string | undefined; dataDir: string }): SecretBox {
  if (config.mfaSecretKey) return new SecretBox(parseKey(config.mfaSecretKey))
  const file = path.join(config.dataDir, KEY_FILE)
  try {
    return new SecretBox(parseKey(fs.readFileSync(file, 'utf8')))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  fs.mkdirSync(config.dataDir, { recursive: true })
  const key = randomBytes(32)
  try {
    fs.writeFileSync(file, key.toString('hex') + '\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' })
    return new SecretBox(key)
  } catch (err) {
    // another process of the same data directory made it first: use theirs
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return new SecretBox(parseKey(fs.readFileSync(file, 'utf8')))
  }
}
