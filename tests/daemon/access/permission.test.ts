import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkAccess, type Principal } from '../../../daemon/access/permission.js';
import type { SecretKeyRecord } from '../../../daemon/store/tenancy-types.js';
import type { UserRecord } from '../../../daemon/store/types.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const user = { id: 'usr_1', tier: 'company' } as UserRecord;
const key = (extra: Partial<SecretKeyRecord> = {}): Principal => ({
  kind: 'key',
  user,
  ownerTier: 'company',
  key: {
    id: 'key_1',
    user_id: 'usr_1',
    company_id: 'cmp_1',
    name: 'ci',
    hash: 'h',
    prefix: 'sk_…',
    created_at: '2026-01-01T00:00:00.000Z',
    last_used_at: null,
    ...extra,
  },
});
const trigger = { kind: 'rest', method: 'POST', route: '/api/events/trigger' } as const;

test('a key written before scopes (no fields) may do everything; a session too', () => {
  assert.equal(checkAccess(key(), trigger, NOW), { allowed: true, rule: 'ok' });
  assert.equal(checkAccess(key({ scopes: null }), { kind: 'mcp', tool: 'events', action: 'delete' }, NOW).rule, 'ok');
  assert.equal(checkAccess({ kind: 'session', user, role: 'owner' }, trigger, NOW).rule, 'ok');
});

test('scopes: the operation needs one the key holds, else "scope" naming it', () => {
  const k = key({ scopes: ['events:read', 'events:trigger'] });
  assert.is(checkAccess(k, trigger, NOW).allowed, true);
  assert.is(checkAccess(k, { kind: 'mcp', tool: 'events', action: 'list' }, NOW).allowed, true);
  const refused = checkAccess(k, { kind: 'mcp', tool: 'events', action: 'create' }, NOW);
  assert.is(refused.allowed, false);
  assert.is(refused.rule, 'scope');
  assert.is(refused.required_scope, 'events:write');
  assert.is(checkAccess(k, { kind: 'mcp', tool: 'whoami' }, NOW).allowed, true, 'whoami needs no scope');
  assert.is(checkAccess(key({ scopes: [] }), { kind: 'mcp', tool: 'whoami' }, NOW).allowed, true);
});

test('fail closed: a route no row covers is refused to keys and sessions alike', () => {
  const op = { kind: 'rest', method: 'POST', route: '/api/new-thing' } as const;
  assert.equal(checkAccess({ kind: 'session', user, role: 'owner' }, op, NOW).allowed, false);
  assert.equal(checkAccess(key(), op, NOW).rule, 'scope');
});

test('order: rotated past its overlap (revoked), then expired, then tier, then scope', () => {
  const past = '2026-03-01T11:59:59.999Z';
  const dead = key({ scopes: [], retires_at: past, replaced_by: 'key_2', expires_at: past });
  assert.is(checkAccess(dead, trigger, NOW).rule, 'revoked');
  assert.match(checkAccess(dead, trigger, NOW).message!, /rotated/);
  const expired = key({ scopes: [], expires_at: past });
  assert.is(checkAccess(expired, trigger, NOW).rule, 'expiry');
  assert.match(checkAccess(expired, trigger, NOW).message!, /expired at 2026-03-01T11:59:59.999Z/);
  // On the instant it expires it is expired; a millisecond before, it works.
  assert.is(checkAccess(key({ expires_at: '2026-03-01T12:00:00.000Z' }), trigger, NOW).rule, 'expiry');
  assert.is(checkAccess(key({ expires_at: '2026-03-01T12:00:00.001Z' }), trigger, NOW).rule, 'ok');
  assert.is(checkAccess(key({ retires_at: '2026-03-01T12:00:00.001Z' }), trigger, NOW).rule, 'ok');
  const trial: Principal = { kind: 'key', user, ownerTier: 'trial', key: (key() as any).key };
  assert.is(checkAccess(trial, trigger, NOW).rule, 'tier');
  assert.is(checkAccess(trial, { kind: 'authenticate' }, NOW).rule, 'tier');
  // The owner's tier decides, not the maker's: a maker on a paid tier does not carry a trial owner's keys.
  assert.is(checkAccess({ ...trial, user: { ...user, tier: 'owner' } } as Principal, trigger, NOW).rule, 'tier');
});

test.run();
