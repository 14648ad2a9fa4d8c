import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Secrets kept at rest encrypted (DESIGN.md §16: client secrets, signing keys): AES-256-GCM with a key
 * from the SECRET_KEY setting (its SHA-256), or, when unset, a random key written once into the data
 * directory. Stored as `v1.<iv>.<tag>.<ciphertext>` in base64url.
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
        fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' })
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
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  }

  /** A key derived for one purpose (the provider's cookie signing), the same on every instance. */
  derive(purpose: string): string {
    return hash('sha256', Buffer.concat([this.key, Buffer.from(purpose)]), 'base64url')
  }
}
