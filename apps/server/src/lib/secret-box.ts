import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PRIVATE_FILE_MODE } from '../db/private-files'

/**
 * Secrets at rest, one key for all of them: two-step sign-in keys (DESIGN.md §14), client secrets and
 * signing keys (§16) are encrypted with AES-256-GCM, recovery codes stored as keyed hashes, so a copy
 * of the database alone shows no secret and lets no recovery code be guessed offline. The key is the
 * SHA-256 of the SECRET_KEY setting or, when unset, of a random key written once into the data
 * directory. Sealed: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromConfig(config: { secretKey: string | undefined; dataDir: string }): SecretBox {
    if (config.secretKey) return new SecretBox(Buffer.from(hash('sha256', config.secretKey, 'hex'), 'hex'))
    const file = path.join(config.dataDir, 'secret.key')
    if (!fs.existsSync(file)) {
      fs.mkdirSync(config.dataDir, { recursive: true })
      // 'wx': two instances starting at once keep whichever key was written first
      try {
        fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: PRIVATE_FILE_MODE, flag: 'wx' })
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
    }
    return SecretBox.fromConfig({ secretKey: fs.readFileSync(file, 'utf8').trim(), dataDir: config.dataDir })
  }

  seal(plain: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.')
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret')
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      )
    } catch {
      // the usual cause is an operator's, not an attacker's: a second instance started without the first's key
      throw new SecretKeyMismatch()
    }
  }

  /** The keyed hash a recovery code is stored and looked up as (HMAC-SHA-256 under a derived key). */
  mac(text: string): string {
    return createHmac('sha256', this.derive('recovery-code')).update(text).digest('hex')
  }

  /** A key derived for one purpose (the provider's cookie signing), the same on every instance. */
  derive(purpose: string): string {
    return hash('sha256', Buffer.concat([this.key, Buffer.from(purpose)]), 'base64url')
  }
}

/** A sealed secret this instance's key does not open: the instances on one database hold different keys. */
export class SecretKeyMismatch extends Error {
  constructor() {
    super(
      'a secret stored in the database cannot be opened with this instance’s key: every instance on one database ' +
        'must run with the same SECRET_KEY (the key the first instance used, or the secret.key file of its data directory)',
    )
    this.name = 'SecretKeyMismatch'
  }
}
