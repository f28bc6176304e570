import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { MAX_TOKEN_CHARS, verifyHs256 } from '../../../daemon/auth/jwt-hs256.js';
import { signToken, verifyToken } from '../../../daemon/auth/tokens.js';

const SECRET = Buffer.alloc(32, 7);
const NOW_MS = Date.UTC(2026, 0, 1);
const NOW = NOW_MS / 1000;
const CLAIMS = { user_id: 'usr_1', email: 'a@example.com', sid: 'ses_1', typ: 'session' as const, amr: ['pwd'] };

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A token with any header and payload, correctly HMAC-signed with `secret`: only the rule under test is broken. */
function forge(header: unknown, payload: unknown, secret = SECRET): string {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}
const HS256 = { alg: 'HS256', typ: 'JWT' };
const good = () => signToken(SECRET, CLAIMS, NOW_MS, 3600_000);

test('a token from signToken verifies, with every claim', () => {
  const claims = verifyToken(SECRET, good(), NOW_MS + 1000)!;
  assert.is(claims.user_id, 'usr_1');
  assert.is(claims.sid, 'ses_1');
  assert.is(claims.typ, 'session');
  assert.equal(claims.amr, ['pwd']);
  assert.is(claims.exp - claims.iat, 3600);
});

test('interoperable with jsonwebtoken both ways: its HS256 tokens verify here, ours verify there, byte for byte the same', () => {
  const ours = good();
  const payload = jwt.verify(ours, SECRET, { algorithms: ['HS256'], clockTimestamp: NOW + 1 }) as Record<
    string,
    unknown
  >;
  assert.is(payload.sid, 'ses_1');
  const iat = NOW;
  const theirs = jwt.sign({ ...CLAIMS, iat, exp: iat + 3600 }, SECRET, { algorithm: 'HS256' });
  assert.is(theirs, ours, 'the same header, payload order and signature');
  assert.is(verifyToken(SECRET, theirs, NOW_MS + 1000)?.sid, 'ses_1');
  // And a different secret on either side fails on the other.
  assert.throws(() => jwt.verify(ours, Buffer.alloc(32, 8), { algorithms: ['HS256'], clockTimestamp: NOW + 1 }));
});

test('expiry: valid until the second before exp, refused at exp and after (as jsonwebtoken)', () => {
  const token = good();
  assert.ok(verifyToken(SECRET, token, NOW_MS + 3599_000));
  assert.is(verifyToken(SECRET, token, NOW_MS + 3600_000), null);
  assert.is(verifyToken(SECRET, token, NOW_MS + 7200_000), null);
  assert.ok(jwt.verify(token, SECRET, { algorithms: ['HS256'], clockTimestamp: NOW + 3599 }));
});

test('exp is required and must be a number; nbf, when present, must be a number and not in the future', () => {
  assert.is(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW }), NOW), null);
  assert.is(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW, exp: String(NOW + 60) }), NOW), null);
  assert.is(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW, exp: null }), NOW), null);
  assert.is(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW, exp: NOW + 60, nbf: NOW + 10 }), NOW), null);
  assert.is(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW, exp: NOW + 60, nbf: 'now' }), NOW), null);
  assert.ok(verifyHs256(SECRET, forge(HS256, { ...CLAIMS, iat: NOW, exp: NOW + 60, nbf: NOW }), NOW));
});

test('the algorithm is pinned: none, HS384/HS512, RS256 and a missing alg are refused even when correctly signed', () => {
  const payload = { ...CLAIMS, iat: NOW, exp: NOW + 60 };
  assert.is(verifyHs256(SECRET, `${b64({ alg: 'none' })}.${b64(payload)}.`, NOW), null);
  assert.is(verifyHs256(SECRET, forge({ alg: 'none' }, payload), NOW), null);
  assert.is(verifyHs256(SECRET, forge({ alg: 'hs256' }, payload), NOW), null);
  assert.is(verifyHs256(SECRET, forge({ typ: 'JWT' }, payload), NOW), null);
  assert.is(verifyHs256(SECRET, jwt.sign(payload, SECRET, { algorithm: 'HS384' }), NOW), null);
  assert.is(verifyHs256(SECRET, jwt.sign(payload, SECRET, { algorithm: 'HS512' }), NOW), null);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  assert.is(verifyHs256(SECRET, jwt.sign(payload, privateKey, { algorithm: 'RS256' }), NOW), null);
});

test('a wrong secret, a changed payload or header, and a changed signature are refused', () => {
  const token = good();
  const [header, payload, signature] = token.split('.') as [string, string, string];
  assert.is(verifyToken(Buffer.alloc(32, 8), token, NOW_MS), null);
  const raised = b64({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), user_id: 'usr_2' });
  assert.is(verifyToken(SECRET, `${header}.${raised}.${signature}`, NOW_MS), null);
  assert.is(verifyToken(SECRET, `${b64({ ...HS256, kid: 'x' })}.${payload}.${signature}`, NOW_MS), null);
  const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
  assert.is(verifyToken(SECRET, `${header}.${payload}.${flipped}`, NOW_MS), null);
});

test('the signature must be exactly the canonical 43-character base64url: padded, re-encoded, truncated or extended ones are refused', () => {
  const token = good();
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const at = (sig: string) => verifyToken(SECRET, `${header}.${payload}.${sig}`, NOW_MS);
  assert.is(at(signature + '='), null);
  assert.is(at(signature.slice(0, -1)), null);
  assert.is(at(signature + 'A'), null);
  assert.is(at(Buffer.from(signature, 'base64url').toString('base64')), null);
  // The last character carries 2 unused bits: a variant that decodes to the same 32 bytes.
  const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const variant = signature.slice(0, -1) + last[last.indexOf(signature.at(-1)!) ^ 1];
  assert.equal(Buffer.from(variant, 'base64url'), Buffer.from(signature, 'base64url'));
  assert.is(at(variant), null);
});

test('malformed shapes are refused: wrong part count, empty parts, characters outside base64url, oversize, non-strings', () => {
  const token = good();
  const [header, payload, signature] = token.split('.') as [string, string, string];
  for (const bad of [
    '',
    '.',
    '..',
    '...',
    `${header}.${payload}`,
    `${header}.${payload}.${signature}.x`,
    `.${payload}.${signature}`,
    `${header}..${signature}`,
    `${header}.${payload}.`,
    `${header}+.${payload}.${signature}`,
    `${header}.${payload}=.${signature}`,
    `${header}.${payload}.${signature.slice(0, 42)}/`,
    ` ${token}`,
    `${token} `,
    `${header}.${payload}\n.${signature}`,
  ]) {
    assert.is(verifyToken(SECRET, bad, NOW_MS), null, JSON.stringify(bad));
  }
  const long = forge(HS256, { ...CLAIMS, iat: NOW, exp: NOW + 60, pad: 'x'.repeat(MAX_TOKEN_CHARS) });
  assert.is(verifyHs256(SECRET, long, NOW), null);
  for (const notString of [null, undefined, 42, {}, ['a.b.c']])
    assert.is(verifyHs256(SECRET, notString as unknown as string, NOW), null);
});

test('header and payload must be JSON objects: not JSON, arrays, null, strings and numbers are refused', () => {
  const payload = { ...CLAIMS, iat: NOW, exp: NOW + 60 };
  for (const header of ['not json', '[]', 'null', '"HS256"', '1', '{"alg":"HS256"']) {
    assert.is(verifyHs256(SECRET, forge(header, payload), NOW), null, header);
  }
  for (const body of ['not json', '[1]', 'null', '"x"', '12', '{"exp":']) {
    assert.is(verifyHs256(SECRET, forge(HS256, body), NOW), null, body);
  }
});

test('verifyToken also needs user_id, sid, a known typ and a numeric iat', () => {
  const base = { ...CLAIMS, iat: NOW, exp: NOW + 60 };
  assert.ok(verifyToken(SECRET, forge(HS256, base), NOW_MS));
  for (const broken of [
    { ...base, user_id: undefined },
    { ...base, user_id: 7 },
    { ...base, sid: undefined },
    { ...base, sid: ['s'] },
    { ...base, typ: 'admin' },
    { ...base, typ: undefined },
    { ...base, iat: undefined },
    { ...base, iat: '1' },
  ]) {
    assert.is(verifyToken(SECRET, forge(HS256, broken), NOW_MS), null, JSON.stringify(broken));
  }
});

// RFC 7515 §4.1.11: a recipient that does not understand a `crit` extension must refuse the token
// (SECURITY.md attack case 8). We understand none, so any `crit` is refused.
test('a header with a crit member is refused, whatever it lists', () => {
  const payload = { ...CLAIMS, iat: NOW, exp: NOW + 60 };
  assert.ok(verifyHs256(SECRET, forge(HS256, payload), NOW));
  assert.is(verifyHs256(SECRET, forge({ ...HS256, crit: ['exp'] }, payload), NOW), null);
  assert.is(
    verifyHs256(
      SECRET,
      forge({ ...HS256, crit: ['http://example.com/x'], 'http://example.com/x': true }, payload),
      NOW,
    ),
    null,
  );
  assert.is(verifyHs256(SECRET, forge({ ...HS256, crit: [] }, payload), NOW), null);
});

test.run();
