import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/**
 * A software WebAuthn authenticator for tests: ES256 keys from node:crypto, CBOR by tiny-cbor,
 * "none" attestation, discoverable credentials with a signature counter. It signs whatever origin
 * and RP ID it is told, so tests can play a phishing site too.
 */
interface StoredKey {
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const b64url = (b: Buffer | Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class SoftAuthenticator {
  readonly keys = new Map<string, StoredKey>();
  constructor(
    public origin = 'http://localhost:7878',
    public rpId = 'localhost',
  ) {}

  /** Answers register-begin's options with a new credential (navigator.credentials.create). */
  register(options: { challenge: string; user: { id: string } }, over: { origin?: string; rpId?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credId = randomBytes(16);
    this.keys.set(b64url(credId), { privateKey, userHandle: options.user.id, counter: 1 });
    const cose = new Map<number, CBORType>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(credId.length);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = Buffer.concat([
      sha256(over.rpId ?? this.rpId),
      Buffer.from([0x45]),
      u32(0),
      Buffer.alloc(16),
      idLen,
      credId,
      Buffer.from(encodeCBOR(cose)),
    ]);
    const attestation = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: over.origin ?? this.origin,
      crossOrigin: false,
    });
    return {
      id: b64url(credId),
      rawId: b64url(credId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers login-begin's options with an assertion (navigator.credentials.get); `counter` forces a counter value. */
  assert(
    options: { challenge: string },
    over: { credentialId?: string; origin?: string; rpId?: string; counter?: number } = {},
  ) {
    const id = over.credentialId ?? [...this.keys.keys()][0]!;
    const key = this.keys.get(id)!;
    key.counter = over.counter ?? key.counter + 1;
    const authData = Buffer.concat([sha256(over.rpId ?? this.rpId), Buffer.from([0x05]), u32(key.counter)]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: over.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), key.privateKey);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: key.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
