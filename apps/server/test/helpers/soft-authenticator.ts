import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

/**
 * A software WebAuthn authenticator for tests and benches (DESIGN.md §23): one ES256 key, answers
 * made byte by byte as an authenticator and a browser would (authenticatorData with the rp id's hash,
 * the UP|UV flags and the counter; clientDataJSON; attestation 'none' in CBOR; a DER signature over
 * authenticatorData ‖ SHA-256(clientDataJSON)). The server's verifier checks them unchanged.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16)
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject
  counter = 0
  userHandle: Uint8Array | null = null

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  get id(): string {
    return b64(this.credentialId)
  }

  /** The public key as COSE_Key (kty EC2, alg ES256, crv P-256, x, y). */
  private cose(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' })
    const coord = (v: string | undefined) => new Uint8Array(Buffer.from(v!, 'base64url'))
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, coord(jwk.x)],
      [-3, coord(jwk.y)],
    ])
    return isoCBOR.encode(key)
  }

  private authData(counter: number, attested: boolean, flags = 0x01 | 0x04): Buffer {
    const rpIdHash = createHash('sha256').update(this.rpId).digest()
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    const head = Buffer.concat([rpIdHash, Buffer.from([flags | (attested ? 0x40 : 0)]), count])
    if (!attested) return head
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    return Buffer.concat([head, Buffer.alloc(16), idLength, this.credentialId, Buffer.from(this.cose())])
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** The answer to registration options, as @simplewebauthn/browser's startRegistration gives it. */
  register(
    options: { challenge: string; user: { id: string } },
    opts: { origin?: string; flags?: number } = {},
  ) {
    this.userHandle = Buffer.from(options.user.id, 'base64url')
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, opts.origin ?? this.origin)
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(this.authData(this.counter, true, opts.flags))],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    }
  }

  /**
   * The answer to authentication options, as startAuthentication gives it. `counter` sets the counter
   * sent (default: one more than the last); `badSignature` flips a byte of the signature.
   */
  assert(
    options: { challenge: string },
    opts: { origin?: string; counter?: number; badSignature?: boolean; flags?: number } = {},
  ) {
    this.counter = opts.counter ?? this.counter + 1
    const authenticatorData = this.authData(this.counter, false, opts.flags)
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, opts.origin ?? this.origin)
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()])
    const signature = sign('sha256', signed, this.privateKey)
    if (opts.badSignature) signature[signature.length - 5] ^= 0xff
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authenticatorData),
        signature: b64(signature),
        userHandle: this.userHandle ? b64(this.userHandle) : undefined,
      },
      clientExtensionResults: {},
    }
  }
}
