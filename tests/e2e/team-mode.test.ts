import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner, PROOF_PASSWORD, signUpVerified } from '../proof/lib/accounts.js';
import { bearer, expectStatus } from '../proof/lib/client.js';
import { eventually, openTeam, pageAll, type TeamDaemon } from '../helpers/team-daemons.js';

/**
 * Team mode with two real daemon processes on one PostgreSQL database: what is done
 * through daemon A holds on daemon B at its very next request. (SIGKILL under load and schedule
 * ticks across restarts: team-mode-kill.test.ts and team-mode-ticks.test.ts.)
 */
const test = suite('team mode: two daemons, one database, one service');
const team = await openTeam();
let A: TeamDaemon;
let B: TeamDaemon;
let owner: Awaited<ReturnType<typeof companyOwner>>;

test.before(async () => {
  if (!team) return;
  [A, B] = await Promise.all([team.start(), team.start()]);
  owner = await companyOwner(A.url, A.dataDir, 'owner@example.test');
});
test.after(async () => void (await Promise.all([A?.stop(), B?.stop()])));

const trigger = (d: TeamDaemon, type: string, content: unknown = null) =>
  d.call('/api/events/trigger', { headers: owner.tenant, body: { type, content } });
const validate = (d: TeamDaemon, sk: string, ak?: string) =>
  d.call('/api/mcp/validate', { method: 'POST', headers: { ...bearer(sk), ...(ak ? { 'x-api-key': ak } : {}) } });

if (team) {
  test('a key deleted, an account key rotated and a session revoked on A are refused by B at once', async () => {
    const key = expectStatus(
      await A.call('/api/keys', { headers: owner.owner.auth, body: { root: owner.company.id, name: 'k2' } }),
      201,
      'key',
    ).body;
    const ak1 = expectStatus(await A.call('/api/account/api-key', { headers: owner.owner.auth, body: {} }), 201, 'ak')
      .body.api_key;
    assert.is((await validate(B, key.secret_key, ak1)).status, 200);
    const ak2 = expectStatus(
      await A.call('/api/account/api-key', { headers: owner.owner.auth, body: {} }),
      201,
      'rotate',
    ).body.api_key;
    assert.is((await validate(B, key.secret_key, ak1)).status, 401, 'the rotated-away account key');
    assert.is((await validate(B, key.secret_key, ak2)).status, 200);
    expectStatus(await A.call(`/api/keys/${key.id}`, { method: 'DELETE', headers: owner.owner.auth }), 200, 'delete');
    assert.is((await validate(B, key.secret_key, ak2)).status, 401, 'the deleted secret key');

    const other = await signUpVerified(B.url, B.dataDir, 'leaver@example.test');
    assert.is((await A.call('/api/me', { headers: other.auth })).status, 200);
    expectStatus(await A.call('/api/auth/logout', { headers: other.auth, body: {} }), 200, 'logout');
    assert.is((await B.call('/api/me', { headers: other.auth })).status, 401, 'the revoked session');
  });

  test('10 failed logins spread over A and B lock the account on both', async () => {
    const email = 'target@example.test';
    await signUpVerified(A.url, A.dataDir, email);
    for (let i = 0; i < 10; i++) {
      const answer = await (i % 2 ? B : A).call('/api/auth/login', { body: { email, password: `wrong guess ${i}` } });
      assert.is(answer.status, 401, `failure ${i + 1}`);
    }
    for (const d of [A, B]) {
      const right = await d.call('/api/auth/login', { body: { email, password: PROOF_PASSWORD } });
      assert.is(right.status, 429, 'locked out, even with the right password');
    }
  });

  test('a follower on B (SSE) sees an event appended through A; fan-out runs once per event', async () => {
    const cfg = { type: 'session:quest_end', tool_calls: [{ tool: 'quests.create', args: { title: 'fanned out' } }] };
    expectStatus(await B.call('/api/events', { headers: owner.tenant, body: cfg }), 201, 'configured event');
    const stream = await fetch(`${B.url}/api/events/stream`, { headers: owner.tenant });
    const reader = stream.body!.getReader();
    let text = '';
    const readUntil = (pattern: RegExp) =>
      eventually(`stream frame ${pattern}`, async () => {
        text += new TextDecoder().decode((await reader.read()).value);
        return pattern.test(text) ? true : undefined;
      });
    await readUntil(/^retry:/m); // B is subscribed now
    const fired = expectStatus(await trigger(A, 'session:quest_end'), 200, 'trigger').body;
    assert.is(fired.fired.length, 1);
    await readUntil(new RegExp(`^id: ${fired.event.id}$`, 'm'));
    await reader.cancel();
    // A long-poll on B waiting past that event is answered by the next append through A.
    const waiting = B.call(`/api/events?since_id=${fired.event.id}&wait=60`, {
      headers: owner.tenant,
      timeoutMs: 90_000,
    });
    const next = expectStatus(await trigger(A, 'team:next'), 200, 'next').body.event;
    assert.equal(
      (await waiting).body.events.map((e: { id: string }) => e.id),
      [next.id],
    );
    const quests = (await B.call('/api/quests', { headers: owner.tenant })).body.quests;
    assert.is(
      quests.filter((q: { title: string }) => q.title === 'fanned out').length,
      1,
      'B did not dispatch it again',
    );
    const trace = (await B.call(`/api/events/trace?event_id=${fired.event.id}`, { headers: owner.tenant })).body;
    assert.is(JSON.stringify(trace).match(/"tool":"quests.create"/g)?.length, 1, 'one firing recorded');
  });

  test('an Idempotency-Key sent to A and B at once fires once: one runs, the other answers its answer', async () => {
    const cfg = {
      type: 'session:quest_result',
      tool_calls: [{ tool: 'quests.create', args: { title: 'exactly once' } }],
    };
    expectStatus(await A.call('/api/events', { headers: owner.tenant, body: cfg }), 201, 'configured event');
    const keyed = (d: TeamDaemon, key: string) =>
      d.call('/api/events/trigger', {
        headers: { ...owner.tenant, 'idempotency-key': key },
        body: { type: 'session:quest_result', content: { key } },
      });
    // A client retrying through a load balancer: each key reaches both daemons together.
    for (let i = 0; i < 10; i++) {
      const [a, b] = await Promise.all([keyed(A, `retry-${i}`), keyed(B, `retry-${i}`)]);
      assert.is(a.status, 200);
      assert.is(b.status, 200);
      assert.is(a.body.event.id, b.body.event.id, `key retry-${i}: two events`);
      assert.equal([a.headers?.get('idempotent-replayed'), b.headers?.get('idempotent-replayed')].sort(), [
        null,
        'true',
      ]);
    }
    const events = await pageAll(B, owner.tenant, 50, 'session:quest_result');
    assert.is(events.length, 10);
    const quests = (await B.call('/api/quests', { headers: owner.tenant })).body.quests;
    assert.is(quests.filter((q: { title: string }) => q.title === 'exactly once').length, 10);
  });

  test('an answer the database refuses: A still answers, a repeat on B waits for it, one event in all', async () => {
    const keyed = (d: TeamDaemon, key: string) =>
      d.call('/api/events/trigger', {
        headers: { ...owner.tenant, 'idempotency-key': key },
        body: { type: 'session:quest_refused', content: { key } },
      });
    // The database refuses to store this Company's answers (a real error raised by PostgreSQL).
    const db = new pg.Client({ connectionString: team!.databaseUrl });
    await db.connect();
    try {
      await db.query(`
        CREATE FUNCTION refuse_answers() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.company_id = '${owner.company.id}' AND NEW.claim IS NULL THEN RAISE EXCEPTION 'refused'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_answers BEFORE UPDATE ON svc_rt_idempotency FOR EACH ROW EXECUTE FUNCTION refuse_answers();`);
      const first = await keyed(A, 'refused-1');
      assert.is(first.status, 200, 'the event is in the log: its caller hears so, not an error to retry');
      // The log reaches the test through a pipe, a moment after the answer.
      await eventually('the daemon log says so', async () =>
        A.log().includes('idempotent answer not stored yet') ? true : undefined,
      );
      // A retry through the load balancer reaches B meanwhile: it waits for A's claim.
      const repeat = keyed(B, 'refused-1');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await db.query('DROP TRIGGER refuse_answers ON svc_rt_idempotency; DROP FUNCTION refuse_answers();');
      const second = await repeat;
      assert.is(second.status, 200);
      assert.is(second.body.event.id, first.body.event.id);
      assert.is(second.headers?.get('idempotent-replayed'), 'true');
      assert.is((await pageAll(A, owner.tenant, 50, 'session:quest_refused')).length, 1);
    } finally {
      await db.query(
        'DROP TRIGGER IF EXISTS refuse_answers ON svc_rt_idempotency; DROP FUNCTION IF EXISTS refuse_answers();',
      );
      await db.end();
    }
  });

  test('a window matcher and loop detection count events from A and B together', async () => {
    const rule = {
      type: 'shell:command_failed',
      tool_calls: [{ tool: 'quests.create', args: { title: 'burst seen' } }],
      matcher: { kind: 'window', count: 3, within_ms: 60_000, cooldown_ms: 600_000 },
    };
    expectStatus(await A.call('/api/events', { headers: owner.tenant, body: rule }), 201, 'window rule');
    const fired: number[] = [];
    const reasons: string[] = [];
    for (const d of [A, B, A, B]) {
      const answer = expectStatus(await trigger(d, 'shell:command_failed'), 200, 'burst').body;
      fired.push(answer.fired.length);
      reasons.push(...answer.not_fired.map((n: { reason: string }) => n.reason));
    }
    assert.equal(fired, [0, 0, 1, 0], 'the third event, whichever daemon took it, crosses the window once');
    assert.equal(reasons, ['matcher', 'matcher', 'cooldown'], 'and the cooldown set on A holds on B');

    const agent = expectStatus(
      await B.call('/api/agents', { headers: owner.tenant, body: { name: 'looper', role: 'dev' } }),
      201,
      'agent',
    ).body.agent;
    const report = (d: TeamDaemon) =>
      d.call('/api/detectors/report', {
        headers: owner.tenant,
        body: { cause: 'tool_call', agent_id: agent.id, tool: 'fs.read', args: { path: 'same.txt' } },
      });
    const loops: number[] = [];
    for (const d of [A, B, A]) loops.push(expectStatus(await report(d), 200, 'report').body.emitted.length);
    assert.equal(loops, [0, 0, 1], 'the same tool call three times over two daemons is one loop:detected');
  });

  test('since_id paging is exact while A and B append at once (a reader on B misses nothing)', async () => {
    const acked: string[] = [];
    const write = async (d: TeamDaemon, n: number) => {
      for (let i = 0; i < n; i++)
        acked.push(expectStatus(await trigger(d, 'team:page', { i }), 200, 'append').body.event.id);
    };
    const seen: string[] = [];
    let writing = true;
    const read = async () => {
      let cursor: string | undefined;
      // Reads on until it has passed the last acknowledged event (a failure guard ends a reader that never does).
      const guard = Date.now() + 120_000;
      while ((writing || cursor !== [...acked].sort().at(-1)) && Date.now() < guard) {
        const q = new URLSearchParams({ event_type: 'team:page', limit: '5', ...(cursor ? { since_id: cursor } : {}) });
        const page = expectStatus(await B.call(`/api/events?${q}`, { headers: owner.tenant }), 200, 'page').body;
        seen.push(...page.events.map((e: { id: string }) => e.id));
        cursor = seen.at(-1) ?? cursor;
      }
    };
    const reading = read();
    try {
      await Promise.all([write(A, 30), write(B, 30), write(A, 30), write(B, 30)]);
    } finally {
      writing = false;
    }
    await reading;
    assert.equal(seen, [...acked].sort(), 'every acknowledged event, once each, in id order');
    assert.equal(await pageAll(A, owner.tenant, 7, 'team:page'), seen);
  });

  test('a console pairing started on A is approved on B and collected on A', async () => {
    const started = expectStatus(
      await A.call('/api/auth/pairing/start', { body: { client: 'e2e' } }),
      201,
      'start',
    ).body;
    const approve = await B.call('/api/auth/pairing/approve', {
      headers: owner.owner.auth,
      body: { user_code: started.user_code },
    });
    assert.is(approve.status, 200, approve.text);
    const polled = expectStatus(
      await A.call('/api/auth/pairing/poll', { body: { device_code: started.device_code } }),
      200,
      'poll',
    );
    assert.is(polled.body.status, 'approved');
    assert.is((await B.call('/api/me', { headers: bearer(polled.body.token) })).status, 200);
  });
}

test.run();
