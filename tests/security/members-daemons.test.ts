import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner, mailedCode, signUpVerified } from '../proof/lib/accounts.js';
import { bearer, expectStatus } from '../proof/lib/client.js';
import { openTeam, type TeamDaemon } from '../helpers/team-daemons.js';

/**
 * SECURITY.md attack case 24 with real daemon processes on one PostgreSQL database: a member
 * removed or a role lowered through daemon A is refused by daemon B on the very next request, and
 * a Company deleted through A leaves B nothing to accept (its keys, its members, its owner).
 * members.test.ts has the same case with two in-process apps; this one has no shared memory at all.
 */
const test = suite('case 24 on two daemon processes');
const team = await openTeam();
let A: TeamDaemon;
let B: TeamDaemon;

test.before(async () => {
  if (!team) return;
  [A, B] = await Promise.all([team.start(), team.start()]);
});
test.after(async () => void (await Promise.all([A?.stop(), B?.stop()])));

/** A new account on B that joined the owner's Company through A's invitation mail, in `role`. */
async function joinThroughA(owner: Awaited<ReturnType<typeof companyOwner>>, email: string, role: string) {
  const person = await signUpVerified(B.url, B.dataDir, email);
  const path = `/api/companies/${owner.company.id}/invitations`;
  expectStatus(await A.call(path, { headers: owner.owner.auth, body: { email, role } }), 201, 'invite');
  const code = await mailedCode(A.url, A.dataDir, email, 1);
  expectStatus(await B.call('/api/invitations/accept', { headers: person.auth, body: { code } }), 200, 'accept');
  return person;
}

if (team) {
  test('a role lowered and a removal on A hold on B at once; the Company key stays', async () => {
    const owner = await companyOwner(A.url, A.dataDir, 'owner24@example.test');
    const co = owner.company.id;
    const bob = await joinThroughA(owner, 'bob24@example.test', 'admin');
    const at = { ...bob.auth, 'x-company': co };
    const key = expectStatus(
      await B.call('/api/keys', { headers: bob.auth, body: { root: co, name: 'bob ci' } }),
      201,
      'key',
    ).body;
    assert.is((await B.call('/api/agents', { headers: at, body: { name: 'x' } })).status, 201, 'the control');
    assert.is((await B.call(`/api/companies/${co}/invitations`, { headers: bob.auth })).status, 200);

    const lower = { method: 'PATCH', headers: owner.owner.auth, body: { role: 'viewer' } };
    expectStatus(await A.call(`/api/companies/${co}/members/${await idOf(bob)}`, lower), 200, 'lower');
    const lowered = await B.call('/api/agents', { headers: at, body: { name: 'y' } });
    assert.equal(
      [lowered.status, lowered.body.code, lowered.body.required_scope],
      [403, 'insufficient_scope', 'agents:write'],
    );
    const invitations = await B.call(`/api/companies/${co}/invitations`, { headers: bob.auth });
    assert.equal([invitations.status, invitations.body.required_scope], [403, 'members:write']);
    assert.is((await B.call('/api/agents', { headers: at })).status, 200, 'a viewer still reads');

    const removed = expectStatus(
      await A.call(`/api/companies/${co}/members/${await idOf(bob)}`, { method: 'DELETE', headers: owner.owner.auth }),
      200,
      'remove',
    );
    assert.equal(
      removed.body.keys.map((k: { id: string }) => k.id),
      [key.id],
    );
    for (const res of [
      await B.call('/api/agents', { headers: at }),
      await B.call(`/api/companies/${co}/members`, { headers: bob.auth }),
      await B.call(`/api/companies/${co}/leave`, { headers: bob.auth, body: {} }),
    ])
      assert.equal([res.status, res.body.code], [403, 'company_forbidden']);
    assert.is((await B.call('/api/agents', { headers: bearer(key.secret_key) })).status, 200, 'the Company key stays');
    assert.equal((await B.call('/api/companies', { headers: bob.auth })).body.companies, []);
  });

  test('a Company deleted on A: B refuses its keys, its members and its owner on the next request', async () => {
    const owner = await companyOwner(A.url, A.dataDir, 'owner-del@example.test');
    const co = owner.company.id;
    const carol = await joinThroughA(owner, 'carol-del@example.test', 'member');
    const carolAt = { ...carol.auth, 'x-company': co };
    assert.is((await B.call('/api/agents', { headers: bearer(owner.sk) })).status, 200, 'the control: the key');
    assert.is((await B.call('/api/agents', { headers: carolAt })).status, 200, 'the control: a member');
    assert.is((await B.call('/api/mcp/validate', { method: 'POST', headers: bearer(owner.sk) })).status, 200);

    const refused = await B.call(`/api/companies/${co}`, { method: 'DELETE', headers: carol.auth });
    assert.equal([refused.status, refused.body.required_scope], [403, 'company:delete']);
    const deleted = expectStatus(
      await A.call(`/api/companies/${co}`, { method: 'DELETE', headers: owner.owner.auth }),
      200,
      'delete',
    );
    assert.equal([deleted.body.keys_revoked, deleted.body.members_removed], [1, 1]);

    assert.is((await B.call('/api/agents', { headers: bearer(owner.sk) })).status, 401, 'the key, on REST');
    assert.is((await B.call('/api/mcp/validate', { method: 'POST', headers: bearer(owner.sk) })).status, 401);
    for (const headers of [owner.tenant, carolAt]) {
      const res = await B.call('/api/agents', { headers });
      assert.equal([res.status, res.body.code], [404, 'company_not_found']);
    }
    assert.equal((await B.call('/api/companies', { headers: carol.auth })).body.companies, []);
  });
}

/** The account's user id, as the daemon knows it. */
async function idOf(person: { auth: Record<string, string> }): Promise<string> {
  return expectStatus(await B.call('/api/me', { headers: person.auth }), 200, 'me').body.id;
}

test.run();
