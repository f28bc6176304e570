import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { mailAfter } from '../../helpers/mail.js';
import { CLOCK_OFFSET_FILE } from '../../../shared/clock-offset.js';
import { clockMoveRefusal } from '../../../daemon/dev/dev-clock.js';

const HOUR = 3_600_000;

/** A user with a Company on a daemon whose clock moves (the fake clock starts 2026-01-15T12:00Z). */
async function setUp() {
  const t = await createTestApp({ devClock: true });
  const u = await createUser(t);
  const company = await t.post('/api/companies', { name: 'acme' }, u.auth);
  const headers = { ...u.auth, 'x-company': company.body.id };
  return { t, u, headers };
}

async function schedule(t: TestApp, headers: Record<string, string>, type: string, title: string, catchUp: string) {
  const res = await t.post(
    '/api/events',
    {
      type,
      tool_calls: [{ tool: 'quests.create', args: { title } }],
      schedule_policy: { catch_up: catchUp },
    },
    headers,
  );
  assert.is(res.status, 201, JSON.stringify(res.body));
}

/** Read in the runtime itself: 25 hours later the user's session has ended. */
async function questTitles(t: TestApp, headers: Record<string, string>): Promise<string[]> {
  const company = await t.deps.stores.companies.findById(headers['x-company']!);
  const rt = await t.deps.runtimes.open(company!);
  return (await rt.services.quests.list({})).map((q) => q.title).sort();
}

const advance = (t: TestApp, body: unknown) => t.post('/api/dev/clock', body, t.operator);

test('advance 25h fires a daily schedule once under latest and all, not under skip, and at once', async () => {
  const { t, headers } = await setUp();
  try {
    // Opened (and so scheduled) before the move: the first walk sets each schedule's baseline.
    for (const p of ['latest', 'all', 'skip']) await schedule(t, headers, 'schedule:0 9 * * *', `daily ${p}`, p);
    const res = await advance(t, { advance_ms: 25 * HOUR });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.offset_ms, 25 * HOUR);
    assert.is(res.body.now, '2026-01-16T13:00:00.000Z');
    assert.equal(await questTitles(t, headers), ['daily all', 'daily latest']);
    assert.is(res.body.schedule_ticks_fired, 2);
    // A second walk of the same time fires nothing more.
    await advance(t, { advance_ms: 0 });
    assert.equal(await questTitles(t, headers), ['daily all', 'daily latest']);
  } finally {
    await t.close();
  }
});

test('with catch_up all, advancing 2h fires an hourly schedule twice; latest once', async () => {
  const { t, headers } = await setUp();
  try {
    await schedule(t, headers, 'schedule:0 * * * *', 'hourly all', 'all');
    await schedule(t, headers, 'schedule:0 * * * *', 'hourly latest', 'latest');
    await advance(t, { advance_ms: 2 * HOUR });
    assert.equal(await questTitles(t, headers), ['hourly all', 'hourly all', 'hourly latest']);
  } finally {
    await t.close();
  }
});

test('moving the clock expires an e-mailed code and a session', async () => {
  const { t, u } = await setUp();
  try {
    const mail = await mailAfter(t, u.user.email!, () =>
      t.post('/api/auth/login/code/request', { email: u.user.email }),
    );
    await advance(t, { advance_ms: 11 * 60_000 });
    const late = await t.post('/api/auth/login/code/consume', { email: u.user.email, code: mail.code });
    assert.is(late.status, 401);
    assert.is((await t.get('/api/me', u.auth)).status, 200);
    await advance(t, { advance_ms: 24 * HOUR });
    assert.is((await t.get('/api/me', u.auth)).status, 401, 'sessions last 24 hours');
  } finally {
    await t.close();
  }
});

test('set moves to a time ahead; the past is refused; the offset is kept in the data folder', async () => {
  const { t } = await setUp();
  try {
    const set = await advance(t, { set: '2026-01-20T00:00:00Z' });
    assert.is(set.status, 200);
    assert.is(set.body.now, '2026-01-20T00:00:00.000Z');
    const saved = JSON.parse(readFileSync(join(t.deps.config.dataDir, CLOCK_OFFSET_FILE), 'utf8'));
    assert.is(saved.offset_ms, set.body.offset_ms);
    const health = await t.get('/healthz');
    assert.equal(health.body, { ok: true, clock_offset_ms: set.body.offset_ms }, 'the console reads it here');
    const back = await advance(t, { set: '2026-01-19T00:00:00Z' });
    assert.equal([back.status, back.body.code], [400, 'clock_backwards']);
    const status = await t.get('/api/dev/clock', t.operator);
    assert.is(status.body.now, '2026-01-20T00:00:00.000Z');
    for (const body of [{}, { advance_ms: -1 }, { advance_ms: 1, set: '2026-02-01T00:00:00Z' }, { set: 'soon' }]) {
      const res = await advance(t, body);
      assert.is(res.status, 400, JSON.stringify(body));
      assert.type(res.body.code, 'string');
    }
    assert.is((await t.post('/api/dev/clock', { advance_ms: 1 })).status, 401, 'operator only');
  } finally {
    await t.close();
  }
});

test('a daemon without a movable clock refuses with 403 clock_not_movable, and team mode or a public bind say why', async () => {
  const t = await createTestApp();
  try {
    const res = await advance(t, { advance_ms: HOUR });
    assert.equal([res.status, res.body.code], [403, 'clock_not_movable']);
    assert.not.ok(existsSync(join(t.deps.config.dataDir, CLOCK_OFFSET_FILE)));
    assert.is((await t.get('/api/dev/clock', t.operator)).body.movable, false);
  } finally {
    await t.close();
  }
  assert.match(clockMoveRefusal({ host: '127.0.0.1', databaseUrl: 'postgres://x/y' })!, /team mode/);
  assert.match(clockMoveRefusal({ host: '0.0.0.0' })!, /--movable-clock/);
  assert.is(clockMoveRefusal({ host: '0.0.0.0', movableClock: true }), null);
  assert.is(clockMoveRefusal({ host: '127.0.0.1' }), null);
});

test.run();
