import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import type { PasskeyRecord } from '../../store/factor-types.js';
import type { UserRecord } from '../../store/types.js';
import { browserOrigins } from '../browser-origins.js';
import { loadLazily } from '../../lazy-module.js';
import { consumeChallenge, createChallenge } from '../one-time.js';

// ~80 modules with its X.509 code: loaded by the first passkey request, not at start (lazy-module.ts).
const loadWebAuthn = loadLazily('Passkeys (@simplewebauthn/server)', () => import('@simplewebauthn/server'));

/**
 * WebAuthn ceremonies over @simplewebauthn/server. Our own 32-byte challenges, single use, 5 min,
 * stored (hashed) with the ceremony and the user they were made for: a registration challenge
 * cannot finish a login, and one user's challenge cannot register a key to another. Origin and
 * RP ID are matched exactly against config. The signature counter must grow.
 */
export type Failure = { ok: false; reason: 'challenge' | 'verification' | 'taken'; detail: string };

const rp = (deps: Pick<Deps, 'config'>) => {
  const { rpId, webauthnOrigins } = browserOrigins(deps.config);
  return { ...deps.config.auth.factors, webauthnRpId: rpId, webauthnOrigin: webauthnOrigins };
};

export async function beginRegistration(deps: Deps, user: UserRecord, name: string) {
  const { generateRegistrationOptions } = await loadWebAuthn();
  const f = rp(deps);
  const challenge = deps.random.bytes(32);
  const options = await generateRegistrationOptions({
    rpName: f.webauthnRpName,
    rpID: f.webauthnRpId,
    userID: new Uint8Array(Buffer.from(user.id)),
    userName: user.email ?? (user.wallet_address as string | undefined) ?? user.id,
    challenge: new Uint8Array(challenge),
    attestationType: 'none',
    // A key already on the account is not offered again; discoverable keys let login skip the e-mail.
    excludeCredentials: (await deps.stores.passkeys.listByUser(user.id)).map((p) => ({
      id: p.id,
      transports: p.transports as never,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await createChallenge(deps, {
    kind: 'webauthn_register',
    subject: user.id,
    ttlMs: f.webauthnChallengeTtlMs,
    secret: options.challenge,
    data: { name },
  });
  return options;
}

export async function finishRegistration(
  deps: Deps,
  user: UserRecord,
  response: RegistrationResponseJSON,
  nameOverride?: string,
): Promise<{ ok: true; passkey: PasskeyRecord } | Failure> {
  const { verifyRegistrationResponse } = await loadWebAuthn();
  const challenge = challengeOf(response.response.clientDataJSON);
  const row = challenge ? await consumeChallenge(deps, 'webauthn_register', challenge) : null;
  if (!row || row.subject !== user.id)
    return {
      ok: false,
      reason: 'challenge',
      detail: 'The registration challenge is unknown, expired or used. Start again with register-begin.',
    };
  const f = rp(deps);
  let info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']>;
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge!,
      expectedOrigin: f.webauthnOrigin,
      expectedRPID: f.webauthnRpId,
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('the attestation did not verify');
    info = result.registrationInfo;
  } catch (err) {
    return {
      ok: false,
      reason: 'verification',
      detail: `The passkey could not be verified: ${(err as Error).message}`,
    };
  }
  const passkey: PasskeyRecord = {
    id: info.credential.id,
    user_id: user.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports ?? [],
    name: nameOverride ?? (typeof row.data?.name === 'string' ? row.data.name : 'passkey'),
    created_at: isoAt(deps.clock.now()),
    last_used_at: null,
  };
  if (!(await deps.stores.passkeys.add(passkey)))
    return { ok: false, reason: 'taken', detail: 'This passkey is registered already.' };
  return { ok: true, passkey };
}

export async function beginLogin(deps: Deps) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const f = rp(deps);
  // Discoverable credentials: no allow-list, so the server says nothing about which accounts exist.
  const options = await generateAuthenticationOptions({
    rpID: f.webauthnRpId,
    challenge: new Uint8Array(deps.random.bytes(32)),
    userVerification: 'preferred',
  });
  await createChallenge(deps, {
    kind: 'webauthn_login',
    subject: null,
    ttlMs: f.webauthnChallengeTtlMs,
    secret: options.challenge,
  });
  return options;
}

export async function finishLogin(
  deps: Deps,
  response: AuthenticationResponseJSON,
): Promise<{ ok: true; user: UserRecord } | Failure> {
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const challenge = challengeOf(response.response.clientDataJSON);
  const row = challenge ? await consumeChallenge(deps, 'webauthn_login', challenge) : null;
  if (!row)
    return {
      ok: false,
      reason: 'challenge',
      detail: 'The login challenge is unknown, expired or used. Start again with login-begin.',
    };
  const key = await deps.stores.passkeys.find(response.id);
  const user = key ? await deps.stores.users.findById(key.user_id) : undefined;
  const handle = response.response.userHandle;
  if (!key || !user || (handle && Buffer.from(handle, 'base64url').toString() !== user.id)) {
    return { ok: false, reason: 'verification', detail: 'This passkey is not registered here.' };
  }
  const f = rp(deps);
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge!,
      expectedOrigin: f.webauthnOrigin,
      expectedRPID: f.webauthnRpId,
      credential: {
        id: key.id,
        publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
        counter: key.counter,
        transports: key.transports as never,
      },
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('the assertion did not verify');
    newCounter = result.authenticationInfo.newCounter;
  } catch (err) {
    return {
      ok: false,
      reason: 'verification',
      detail: `The passkey could not be verified: ${(err as Error).message}`,
    };
  }
  // Checked again in one atomic step: two racing assertions with the same counter cannot both pass (a cloned key).
  if (!(await deps.stores.passkeys.advanceCounter(key.id, newCounter, isoAt(deps.clock.now())))) {
    return {
      ok: false,
      reason: 'verification',
      detail: 'The signature counter did not grow: this passkey may have been cloned.',
    };
  }
  return { ok: true, user };
}

function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length > 0 ? parsed.challenge : null;
  } catch {
    return null;
  }
}
