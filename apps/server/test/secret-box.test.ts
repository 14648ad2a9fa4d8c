import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SecretBox, SecretKeyMismatch } from '../src/lib/secret-box'

/** Secrets at rest (DESIGN.md §14, §16): sealed under SECRET_KEY or the data directory's own key. */
const dirs: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-secret-box-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

describe('SecretBox', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    const box = SecretBox.fromConfig({ secretKey: 'a key', dataDir: tempDir() })
    const a = box.seal('二步验证 secret')
    expect(a).toMatch(/^v1\./)
    expect(a).not.toBe(box.seal('二步验证 secret'))
    expect(box.open(a)).toBe('二步验证 secret')
  })

  it('is the same box on every instance given one SECRET_KEY, whatever their data directories', () => {
    const sealed = SecretBox.fromConfig({ secretKey: 'shared', dataDir: tempDir() }).seal('x')
    expect(SecretBox.fromConfig({ secretKey: 'shared', dataDir: tempDir() }).open(sealed)).toBe('x')
  })

  it('without SECRET_KEY keeps one key in the data directory, readable by the owner only', () => {
    const dir = tempDir()
    const sealed = SecretBox.fromConfig({ secretKey: undefined, dataDir: dir }).seal('x')
    expect(SecretBox.fromConfig({ secretKey: undefined, dataDir: dir }).open(sealed)).toBe('x')
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o077).toBe(0)
  })

  it('names SECRET_KEY when an instance holds another key, and refuses a tampered secret', () => {
    const sealed = SecretBox.fromConfig({ secretKey: 'first', dataDir: tempDir() }).seal('x')
    const other = SecretBox.fromConfig({ secretKey: 'second', dataDir: tempDir() })
    expect(() => other.open(sealed)).toThrow(SecretKeyMismatch)
    expect(() => other.open(sealed)).toThrow(/SECRET_KEY/)
    const box = SecretBox.fromConfig({ secretKey: 'first', dataDir: tempDir() })
    const [v, iv, tag, body] = sealed.split('.')
    const flipped = Buffer.from(body, 'base64url')
    flipped[0] ^= 1
    expect(() => box.open([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow(SecretKeyMismatch)
    expect(() => box.open('plain text')).toThrow('not a sealed secret')
  })

  it('keys recovery codes by a derived key: the same code, the same hash; another key, another hash', () => {
    const a = SecretBox.fromConfig({ secretKey: 'k', dataDir: tempDir() })
    expect(a.mac('abcd-efgh')).toBe(a.mac('abcd-efgh'))
    expect(a.mac('abcd-efgh')).not.toBe(
      SecretBox.fromConfig({ secretKey: 'k2', dataDir: tempDir() }).mac('abcd-efgh'),
    )
  })
})
