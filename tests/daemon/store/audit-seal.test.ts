import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson, hashOf, sealEntry, verifyEntries } from '../../../daemon/store/audit/chain.js';
import type { NewAuditEntry } from '../../../daemon/store/audit-types.js';

const base: NewAuditEntry = {
  at: '2026-11-28T12:00:00.000Z',
  actor: { type: 'key', user_id: 'usr_1', key_id: 'key_1', client_id: null, grant_id: null },
  user_id: 'usr_1',
  company_id: 'cmp_1',
  action: 'mcp.tools_call',
  target: 'events.list',
  outcome: 'succeeded',
  reason: null,
  request_id: 'req_1',
  client_address: '127.0.0.1',
  user_agent: 'curl/8 "quoted" \\ and \u2028 and \ud800',
  details: { ms: 3, nested: { z: 1, a: [1, 'two', null, { y: true, b: undefined }] }, digest: 'sha256:…' },
};

/**
 * Sealing hashes each entry once, on the request path; `verify` recomputes the hash from what was
 * stored. The two must agree for every entry, or every chain would read as edited.
 */
test('a sealed entry carries the hash the general canonical encoding gives it, for awkward text and odd shapes too', () => {
  const odd: NewAuditEntry[] = [
    base,
    { ...base, company_id: null, target: null, details: {} },
    {
      ...base,
      actor: { ...base.actor, type: 'oauth' as const, key_id: null, client_id: 'https://c.example/x', grant_id: 'g' },
    },
    // Shapes a caller should not send: they still seal and verify consistently.
    { ...base, target: 42 as unknown as string },
    { ...base, reason: undefined as unknown as null, details: { when: new Date(0) } },
    { ...base, extra: 'dropped' } as NewAuditEntry,
  ];
  const heads = new Map<string, { seq: number; hash: string }>();
  const sealed = odd.map((e, i) => {
    const s = sealEntry(e, i + 1, heads.get(e.company_id ?? 'account'));
    heads.set(s.stream, { seq: s.seq, hash: s.hash });
    return s;
  });
  for (const s of sealed) {
    const stored = JSON.parse(JSON.stringify(s));
    assert.is(s.hash, hashOf(stored), canonicalJson(stored));
    assert.equal(stored, s, 'the entry returned is the one a later read returns');
  }
  const check = verifyEntries(sealed.map((entry) => ({ entry, where: entry.id })));
  assert.ok(check.ok, JSON.stringify(check.broken));
});

test.run();
