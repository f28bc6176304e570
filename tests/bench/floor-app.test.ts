import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac, randomBytes } from 'node:crypto';
import { inject } from 'light-my-request';
import { createFloorApp } from '../../bench/floor-app.js';
import { FLOOR_ROWS_PATH, hashSecretKey, type FloorRows } from '../../bench/floor.js';
import { signToken } from '../../daemon/auth/tokens.js';
import { formatKey } from '../../shared/keys.js';

/**
 * The floor app is the baseline the hot routes' targets divide by, so it must refuse what the
 * daemon refuses: a cheaper floor that skipped a check would make svc look slower than it is.
 */
const secret = randomBytes(32);
const now = Date.now();
const answer = { headers: { 'cache-control': 'no-store' }, body: { id: 'usr_1', session: { id: 'ses_1' } } };
const liveRow = { user_id: 'usr_1', expires_at: new Date(now + 3_600_000).toISOString(), revoked_at: null, answer };
const session = (claims: Partial<{ sid: string; typ: 'session' | 'partial' }> = {}, ttlMs = 3_600_000) =>
  signToken(secret, { user_id: 'usr_1', email: null, sid: 'ses_1', typ: 'session', ...claims }, now, ttlMs);

async function floorWith(rows: FloorRows) {
  const handler = createFloorApp().callback();
  const added = await inject(handler, { method: 'POST', url: FLOOR_ROWS_PATH, payload: JSON.stringify(rows) });
  assert.is(added.statusCode, 204);
  return (url: string, authorization: string, payload?: unknown) =>
    inject(handler, {
      method: payload === undefined && url === '/api/me' ? 'GET' : 'POST',
      url,
      headers: { authorization: `Bearer ${authorization}` },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
}

/** A token signed with the right secret over a header of our choosing. */
function withHeader(header: object, token: string): string {
  const head = Buffer.from(JSON.stringify(header)).toString('base64url');
  const signed = `${head}.${token.split('.')[1]}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

test('a live session gets the row answer, its headers and a request id shaped as the daemon makes them', async () => {
  const call = await floorWith({ jwtSecret: secret.toString('hex'), sessions: { ses_1: liveRow } });
  const res = await call('/api/me', session());
  assert.is(res.statusCode, 200);
  assert.is(res.payload, JSON.stringify(answer.body));
  assert.is(res.headers['cache-control'], 'no-store');
  assert.is(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.match(String(res.headers['x-request-id']), /^req_[0-9a-z]{18}$/);
});

test('session tokens are refused as the daemon refuses them', async () => {
  const call = await floorWith({
    jwtSecret: secret.toString('hex'),
    sessions: { ses_1: liveRow, ses_revoked: { ...liveRow, revoked_at: new Date(now).toISOString() } },
  });
  const good = session();
  const forged = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`;
  const refused = {
    'a wrong signature': forged,
    'alg none, unsigned': withHeader({ alg: 'none', typ: 'JWT' }, good).replace(/[^.]+$/, ''),
    'alg none, signed': withHeader({ alg: 'none', typ: 'JWT' }, good),
    'alg HS512': withHeader({ alg: 'HS512', typ: 'JWT' }, good),
    'a crit header': withHeader({ alg: 'HS256', typ: 'JWT', crit: ['b64'] }, good),
    'an expired token': session({}, -1000),
    'a partial (TOTP-pending) token': session({ typ: 'partial' }),
    'a revoked session': session({ sid: 'ses_revoked' }),
    'an unknown session': session({ sid: 'ses_unknown' }),
  };
  for (const [what, token] of Object.entries(refused)) assert.is((await call('/api/me', token)).statusCode, 401, what);
  // The good token still passes after all of them: the remembered header is only ever a good one.
  assert.is((await call('/api/me', good)).statusCode, 200);
});

test('keys: the format is checked, then the hash looked up; MCP answers echo the request id', async () => {
  const key = formatKey('secret', randomBytes(32));
  const list = { headers: {}, body: { result: { content: [] }, jsonrpc: '2.0', id: 1 } };
  const validate = { headers: {}, body: { ok: true } };
  const call = await floorWith({ keys: { [hashSecretKey(key)]: { validate, eventsList: list } } });
  assert.is((await call('/api/mcp/validate', key)).payload, '{"ok":true}');
  const message = { jsonrpc: '2.0', id: 'call-7', method: 'tools/call', params: { name: 'events' } };
  assert.is((await call('/api/mcp', key, message)).payload, '{"result":{"content":[]},"jsonrpc":"2.0","id":"call-7"}');
  const mistyped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
  assert.is((await call('/api/mcp/validate', mistyped)).statusCode, 401);
  assert.is((await call('/api/mcp/validate', formatKey('secret', randomBytes(32)))).statusCode, 401);
  assert.is((await call('/api/mcp', key, { ...message, method: 'tools/list' })).statusCode, 401);
});

test.run();
