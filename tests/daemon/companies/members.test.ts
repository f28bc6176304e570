import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { waitForMail } from '../../helpers/mail.js';
import { invite, joinAs, patch } from '../../helpers/team.js';
import { testAppModes } from '../../helpers/test-app.js';

/**
 * A Company's people through the routes, on the memory store and in team mode: members and roles,
 * invitations end to end with the captured mail, leaving and transferring, and every refusal.
 */
for (const mode of testAppModes()) {
  const setUp = async () => {
    const t = await mode.open();
    const alice = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, alice, 'acme');
    return { t, alice, co };
  };
  const as = (u: { auth: Record<string, string> }, companyId: string) => ({ ...u.auth, 'x-company': companyId });

  test(`${mode.name}: an invitation by mail, accepted with the invitee's session; the role decides`, async () => {
    const { t, alice, co } = await setUp();
    try {
      const bob = await createUser(t);
      const { res, code } = await invite(t, alice, co.id, bob.user.email!, 'member');
      assert.equal([res.body.invitation.role, res.body.invitation.status], ['member', 'pending']);
      assert.not.ok(JSON.stringify(res.body).includes(code), 'the code goes by mail only');
      const mail = (await t.deps.stores.outbox.list({ to: bob.user.email! })).at(-1)!;
      assert.match(mail.code!, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      assert.ok(mail.link?.includes(code) && mail.text.includes('acme'));
      assert.is((await t.get(`/api/companies/${co.id}/invitations`, alice.auth)).body.invitations.length, 1);

      assert.is((await t.get('/api/agents', as(bob, co.id))).status, 403, 'not a member before accepting');
      const accepted = await t.post('/api/invitations/accept', { code }, bob.auth);
      assert.equal(accepted.body, { ok: true, company: { id: co.id, name: 'acme' }, role: 'member' });
      assert.is((await t.get(`/api/companies/${co.id}/invitations`, alice.auth)).body.invitations.length, 0);
      const again = await t.post('/api/invitations/accept', { code }, bob.auth);
      assert.equal([again.status, again.body.code], [404, 'invitation_not_found']);

      const listed = (await t.get('/api/companies', bob.auth)).body.companies;
      assert.equal(
        listed.map((c: any) => [c.id, c.role]),
        [[co.id, 'member']],
      );
      const members = (await t.get(`/api/companies/${co.id}/members`, bob.auth)).body.members;
      assert.equal(
        members.map((m: any) => [m.user_id, m.role]),
        [
          [alice.user.id, 'owner'],
          [bob.user.id, 'member'],
        ],
      );
      // A member reads and triggers, and is refused configuring: the same 403 a key's scope gets.
      assert.is((await t.get('/api/agents', as(bob, co.id))).status, 200);
      assert.is((await t.post('/api/quests', { title: 'q' }, as(bob, co.id))).status, 201);
      const refused = await t.post('/api/agents', { name: 'x' }, as(bob, co.id));
      assert.equal(
        [refused.status, refused.body.code, refused.body.required_scope],
        [403, 'insufficient_scope', 'agents:write'],
      );
      const invites = await t.post(
        `/api/companies/${co.id}/invitations`,
        { email: 'c@example.com', role: 'viewer' },
        bob.auth,
      );
      assert.equal([invites.status, invites.body.required_scope], [403, 'members:write']);
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: invitation refusals: role, address, expiry (7 days), revocation, strangers`, async () => {
    const { t, alice, co } = await setUp();
    try {
      const url = `/api/companies/${co.id}/invitations`;
      assert.is((await t.post(url, { email: 'x@example.com', role: 'owner' }, alice.auth)).status, 400);
      assert.is((await t.post(url, { email: 'not an address', role: 'member' }, alice.auth)).status, 400);
      assert.is((await t.post(url, { email: 'x@example.com', role: 'member' })).status, 401);
      const stranger = await createUser(t);
      const foreign = await t.post(url, { email: 'x@example.com', role: 'member' }, stranger.auth);
      assert.equal([foreign.status, foreign.body.code], [403, 'company_forbidden']);
      const unknown = await t.get('/api/companies/cmp_nope/members', alice.auth);
      assert.equal([unknown.status, unknown.body.code], [404, 'company_not_found']);
      const self = await t.post(url, { email: alice.user.email, role: 'admin' }, alice.auth);
      assert.equal([self.status, self.body.code], [409, 'already_member']);

      const carol = await createUser(t);
      const first = await invite(t, alice, co.id, carol.user.email!, 'viewer');
      const second = await invite(t, alice, co.id, carol.user.email!, 'member');
      assert.is(second.res.body.replaced, first.res.body.invitation.id, 'a new invitation replaces the pending one');
      assert.is((await t.post('/api/invitations/accept', { code: first.code }, carol.auth)).status, 404);
      const wrong = await t.post('/api/invitations/accept', { code: second.code }, stranger.auth);
      assert.equal([wrong.status, wrong.body.code], [403, 'invitation_email_mismatch']);
      assert.is((await t.post('/api/invitations/accept', { code: 'ABCD-EFGH-JKMN-PQRS' }, carol.auth)).status, 404);
      assert.is((await t.post('/api/invitations/accept', {}, carol.auth)).status, 400);
      assert.is((await t.post('/api/invitations/accept', { code: second.code })).status, 401);

      const revoked = await t.del(`${url}/${second.res.body.invitation.id}`, alice.auth);
      assert.equal(revoked.body, { ok: true, id: second.res.body.invitation.id, revoked: true });
      assert.is((await t.del(`${url}/${second.res.body.invitation.id}`, alice.auth)).status, 404);
      assert.is((await t.post('/api/invitations/accept', { code: second.code }, carol.auth)).status, 404);

      const third = await invite(t, alice, co.id, carol.user.email!, 'member');
      t.clock.advance(7 * 24 * 3600_000 - 1);
      // Sessions last a day: log both in again a week later.
      const fresh = async (u: typeof alice) => ({
        authorization: `Bearer ${(await issueSession(t.deps, { user: u.user, kind: 'full', method: ['pwd'] })).token}`,
      });
      assert.is((await t.get(url, await fresh(alice))).body.invitations[0].status, 'pending');
      t.clock.advance(1);
      assert.is((await t.get(url, await fresh(alice))).body.invitations[0].status, 'expired');
      const carolNow = await fresh(carol);
      const late = await t.post('/api/invitations/accept', { code: third.code }, carolNow);
      assert.equal([late.status, late.body.code], [400, 'invitation_expired']);
      assert.is((await t.get('/api/companies', carolNow)).body.companies.length, 0);
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: roles change and members go on the next request; the owner stays until a transfer`, async () => {
    const { t, alice, co } = await setUp();
    try {
      const bob = await joinAs(t, alice, co.id, 'admin');
      const dan = await joinAs(t, alice, co.id, 'member');
      const member = (id: string) => `/api/companies/${co.id}/members/${id}`;
      assert.is((await t.post('/api/quests', { title: 'q' }, as(dan, co.id))).status, 201);
      const lowered = await patch(t, member(dan.user.id), { role: 'viewer' }, bob.auth);
      assert.equal(lowered.body, { ok: true, member: { user_id: dan.user.id, role: 'viewer' } });
      const now = await t.post('/api/quests', { title: 'q' }, as(dan, co.id));
      assert.equal([now.status, now.body.required_scope], [403, 'quests:write']);
      assert.is((await t.get('/api/quests', as(dan, co.id))).status, 200);

      assert.is((await patch(t, member(alice.user.id), { role: 'viewer' }, bob.auth)).body.code, 'owner_role_fixed');
      assert.is((await t.del(member(alice.user.id), bob.auth)).status, 409);
      assert.is((await patch(t, member(dan.user.id), { role: 'owner' }, bob.auth)).status, 400);
      assert.is((await patch(t, member('usr_nobody'), { role: 'viewer' }, bob.auth)).status, 404);
      assert.is(
        (await patch(t, member(bob.user.id), { role: 'viewer' }, dan.auth)).body.required_scope,
        'members:write',
      );

      const removed = await t.del(member(dan.user.id), bob.auth);
      assert.equal([removed.body.removed, removed.body.keys], [true, []]);
      const gone = await t.get('/api/quests', as(dan, co.id));
      assert.equal([gone.status, gone.body.code], [403, 'company_forbidden']);
      assert.is((await t.get(`/api/companies/${co.id}/members`, dan.auth)).status, 403);
      assert.is((await t.del(member(dan.user.id), bob.auth)).status, 404);

      const stays = await t.post(`/api/companies/${co.id}/leave`, {}, alice.auth);
      assert.equal([stays.status, stays.body.code], [409, 'owner_must_transfer']);
      const left = await t.post(`/api/companies/${co.id}/leave`, {}, bob.auth);
      assert.is(left.body.left, true);
      assert.is((await t.get('/api/agents', as(bob, co.id))).status, 403);
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: transfer: exactly one owner, the old one an admin; only the owner transfers`, async () => {
    const { t, alice, co } = await setUp();
    try {
      const bob = await joinAs(t, alice, co.id, 'member');
      const url = `/api/companies/${co.id}/transfer`;
      assert.is((await t.post(url, { user_id: alice.user.id }, bob.auth)).body.required_scope, 'company:transfer');
      assert.is((await t.post(url, { user_id: 'usr_nobody' }, alice.auth)).body.code, 'member_not_found');
      assert.is((await t.post(url, {}, alice.auth)).status, 400);
      const moved = await t.post(url, { user_id: bob.user.id }, alice.auth);
      assert.equal(moved.body, { ok: true, company_id: co.id, owner_id: bob.user.id, your_role: 'admin' });
      const members = (await t.get(`/api/companies/${co.id}/members`, alice.auth)).body.members;
      assert.equal(
        members.map((m: any) => [m.user_id, m.role]),
        [
          [bob.user.id, 'owner'],
          [alice.user.id, 'admin'],
        ],
      );
      assert.is((await t.post(url, { user_id: alice.user.id }, alice.auth)).status, 403);
      assert.is((await t.post(`/api/companies/${co.id}/leave`, {}, alice.auth)).status, 200);
      assert.equal((await t.get('/api/companies', bob.auth)).body.companies[0].role, 'owner');
      // The new owner may not already own a Company of that name.
      const other = await createCompany(t, bob, 'shop');
      const carol = await joinAs(t, bob, other.id, 'admin');
      await createCompany(t, carol, 'SHOP');
      assert.is(
        (await t.post(`/api/companies/${other.id}/transfer`, { user_id: carol.user.id }, bob.auth)).status,
        409,
      );
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: signing up with the invitation's code makes a member once verified`, async () => {
    const { t, alice, co } = await setUp();
    try {
      const email = `new-${Date.now()}@example.com`;
      const { code } = await invite(t, alice, co.id, email, 'viewer');
      const wrongAddress = await t.post('/api/auth/signup', {
        email: 'someone-else@example.com',
        password: 'correct horse battery staple',
        invite_code: code,
      });
      assert.equal([wrongAddress.status, wrongAddress.body.code], [400, 'invite_invalid']);
      const signed = await t.post('/api/auth/signup', {
        email,
        password: 'correct horse battery staple',
        invite_code: code,
      });
      assert.is(signed.status, 200);
      const user = await t.deps.stores.users.findByEmail(email);
      assert.is((await t.deps.stores.members.accessOf(co.id, user!.id))?.role, null, 'not a member while unverified');
      const verifyMail = await waitForMail(t, email, (m) => m.subject.includes('verification'));
      const verified = await t.post('/api/auth/verify', { email, code: verifyMail.code });
      assert.equal(verified.body.joined, { company: { id: co.id, name: 'acme' }, role: 'viewer' });
      const listed = await t.get('/api/companies', { authorization: `Bearer ${verified.body.token}` });
      assert.equal(
        listed.body.companies.map((c: any) => c.role),
        ['viewer'],
      );
    } finally {
      await t.close();
    }
  });
}

test.run();
