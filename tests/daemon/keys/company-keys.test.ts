import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { joinAs } from '../../helpers/team.js';
import { testAppModes } from '../../helpers/test-app.js';

/**
 * Keys belong to the Company: made within the maker's role, managed by admins and the owner, seen
 * and revoked by a member only when theirs, working after their maker leaves, and only while the
 * Company's owner is on a tier with keys, whoever made them.
 */
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

for (const mode of testAppModes()) {
  const setUp = async () => {
    const t = await mode.open();
    const owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    const admin = await joinAs(t, owner, co.id, 'admin');
    const member = await joinAs(t, owner, co.id, 'member');
    const viewer = await joinAs(t, owner, co.id, 'viewer');
    return { t, owner, co, admin, member, viewer };
  };

  test(`${mode.name}: a key's scopes stay within its maker's role; beyond it is a 403 and no key`, async () => {
    const { t, co, admin, member, viewer } = await setUp();
    try {
      const made = await t.post('/api/keys', { root: co.id, name: 'bot' }, member.auth);
      assert.is(made.status, 201);
      assert.equal(made.body.scopes, [
        'agents:read',
        'sessions:read',
        'sessions:write',
        'quests:read',
        'quests:write',
        'messages:send',
        'events:read',
        'events:trigger',
        'questions:read',
        'channels:read',
        'audit:read',
      ]);
      assert.is(made.body.created_by, member.user.id);
      const beyond = await t.post(
        '/api/keys',
        { root: co.id, name: 'x', scopes: ['events:read', 'events:write'] },
        member.auth,
      );
      assert.equal(
        [beyond.status, beyond.body.code, beyond.body.required_scope],
        [403, 'insufficient_scope', 'events:write'],
      );
      const read = await t.post('/api/keys', { root: 'acme', name: 'ro', scopes: ['events:read'] }, viewer.auth);
      assert.equal([read.status, read.body.scopes], [201, ['events:read']]);
      assert.is((await t.post('/api/keys', { root: co.id, name: 'all' }, admin.auth)).body.scopes, null);
      // Only the keys made: the refused one left nothing behind.
      assert.equal(
        (await t.get('/api/keys', member.auth)).body.keys.map((k: any) => k.name),
        ['bot'],
      );
      // The member's key works with what it holds and is refused the rest.
      assert.is((await t.post('/api/quests', { title: 'q' }, bearer(made.body.secret_key))).status, 201);
      assert.is(
        (await t.post('/api/agents', { name: 'a' }, bearer(made.body.secret_key))).body.required_scope,
        'agents:write',
      );
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: admins manage every key; a member sees and revokes only theirs; keys outlive their maker`, async () => {
    const { t, owner, co, admin, member } = await setUp();
    try {
      const mine = (await t.post('/api/keys', { root: co.id, name: 'member key' }, member.auth)).body;
      const theirs = (await t.post('/api/keys', { root: co.id, name: 'admin key' }, admin.auth)).body;
      assert.equal(
        (await t.get('/api/keys', admin.auth)).body.keys.map((k: any) => k.name),
        ['member key', 'admin key'],
      );
      assert.equal(
        (await t.get('/api/keys', member.auth)).body.keys.map((k: any) => k.name),
        ['member key'],
      );
      const refused = await t.del(`/api/keys/${theirs.id}`, member.auth);
      assert.equal([refused.status, refused.body.required_scope], [403, 'keys:manage']);
      const stranger = await createUser(t, { tier: 'company' });
      assert.is((await t.del(`/api/keys/${theirs.id}`, stranger.auth)).status, 404);
      assert.is(
        (await t.post(`/api/keys/${theirs.id}/explain`, { operation: 'GET /api/agents' }, member.auth)).status,
        403,
      );
      const explained = await t.post(`/api/keys/${mine.id}/explain`, { operation: 'POST /api/agents' }, admin.auth);
      assert.equal([explained.body.allowed, explained.body.required_scope], [false, 'agents:write']);

      const whoami = async () =>
        (
          await t.post(
            '/api/mcp',
            { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
            { ...bearer(mine.secret_key), accept: 'application/json, text/event-stream' },
          )
        ).body.result.structuredContent;
      assert.equal([(await whoami()).role, (await whoami()).user.id], ['member', member.user.id]);
      const removed = await t.del(`/api/companies/${co.id}/members/${member.user.id}`, owner.auth);
      assert.equal(
        removed.body.keys.map((k: any) => [k.id, k.created_by]),
        [[mine.id, member.user.id]],
      );
      assert.is((await t.get('/api/agents', bearer(mine.secret_key))).status, 200, 'the Company key keeps working');
      assert.is((await whoami()).role, null, 'its maker left');
      assert.equal((await t.get('/api/keys', member.auth)).body.keys, [], 'gone from the former member');
      assert.is((await t.del(`/api/keys/${mine.id}`, member.auth)).status, 404);
      const rotated = await t.post(`/api/keys/${mine.id}/rotate`, { overlap_seconds: 0 }, admin.auth);
      assert.equal([rotated.status, rotated.body.created_by], [201, member.user.id]);
      assert.is((await t.del(`/api/keys/${rotated.body.id}`, admin.auth)).status, 200);
      assert.is((await t.get('/api/agents', bearer(rotated.body.secret_key))).status, 401);
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: the owner's tier decides, whoever made the key (402)`, async () => {
    const t = await mode.open();
    try {
      const owner = await createUser(t, { tier: 'trial' });
      const co = await createCompany(t, owner, 'free');
      const rich = await joinAs(t, owner, co.id, 'admin', { tier: 'owner' });
      const denied = await t.post('/api/keys', { root: co.id, name: 'k' }, rich.auth);
      assert.equal([denied.status, denied.body.code], [402, 'subscription_required']);
      await t.post('/api/dev/tier', { email: owner.user.email, tier: 'company' }, t.operator);
      const trialMember = await joinAs(t, owner, co.id, 'member', { tier: 'trial' });
      const made = await t.post('/api/keys', { root: co.id, name: 'k' }, trialMember.auth);
      assert.is(made.status, 201, "a trial member makes keys in a paid owner's Company");
      assert.is((await t.get('/api/agents', bearer(made.body.secret_key))).status, 200);
      await t.post('/api/dev/tier', { email: owner.user.email, tier: 'starter' }, t.operator);
      const stopped = await t.get('/api/agents', bearer(made.body.secret_key));
      assert.equal([stopped.status, stopped.body.code], [402, 'subscription_required']);
      // A trial account naming a Company it is not in still hears the tier first (case 17).
      assert.is((await t.post('/api/keys', { root: 'elsewhere', name: 'k' }, trialMember.auth)).status, 402);
    } finally {
      await t.close();
    }
  });
}

test.run();
