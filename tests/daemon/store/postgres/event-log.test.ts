import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventRow } from '../../../../daemon/company/company-services.js';
import { createEventNotifier, type EventNotifier } from '../../../../daemon/store/postgres/event-notifier.js';
import { openPostgresEventLog } from '../../../../daemon/store/postgres/event-log.js';
import type { Database } from '../../../../daemon/store/postgres/connect.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { runLogConformance } from '../event-log/log-conformance.js';
import { PgFixture } from './pg-fixture.js';

const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  let db: Database;
  let notifier: EventNotifier;
  let companies = 0;
  runLogConformance(
    'postgres',
    async (clock) => openPostgresEventLog({ pool: db.pool, notifier, company: `cmp_conf_${++companies}`, clock }),
    {
      before: async () => {
        await fx.setup();
        db = await fx.daemon(10);
        notifier = createEventNotifier({ url: fx.url, pool: db.pool });
      },
    },
  );

  const test = suite('postgres event log: several daemons');
  const notifiers: EventNotifier[] = [];
  const blank = { agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null };
  test.before(async () => {
    await fx.setup();
  });
  test.after(async () => {
    await Promise.all([notifier, ...notifiers].map((n) => n?.close()));
    await fx.closeAll();
  });
  const daemonLog = async (company: string) => {
    const daemon = await fx.daemon(4);
    const n = createEventNotifier({ url: fx.url, pool: daemon.pool, retryMs: 20 });
    notifiers.push(n);
    return openPostgresEventLog({ pool: daemon.pool, notifier: n, company, clock: new FakeClock() });
  };

  test('writers on three daemons, a reader on a fourth paging by since_id: every event once, in order, no gaps', async () => {
    const writers = await Promise.all([daemonLog('cmp_busy'), daemonLog('cmp_busy'), daemonLog('cmp_busy')]);
    const reader = await daemonLog('cmp_busy');
    const acknowledged: EventRow[] = [];
    let done = false;
    const writing = (async () => {
      await Promise.all(
        writers.map(async (log, w) => {
          for (let wave = 0; wave < 25; wave++) {
            const batch = Array.from({ length: 1 + ((wave * 7 + w) % 9) }, (_, i) =>
              log.append({ ...blank, type: `w${w}:x`, content: { wave, i } }),
            );
            acknowledged.push(...(await Promise.all(batch)));
          }
        }),
      );
      done = true;
    })();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100_000; guard++) {
      const finished = done; // read before the page: an empty page after this means nothing is left
      const page = await reader.query({ since_id: cursor, limit: 7 });
      seen.push(...page.events.map((e) => e.id));
      if (page.events.length > 0) cursor = page.events.at(-1)!.id;
      if (finished && page.events.length === 0) break;
    }
    await writing;
    const expected = acknowledged.map((e) => e.id).sort();
    assert.equal(seen, expected, 'the reader saw each acknowledged event once, in id order');
    assert.equal(
      seen.map((id) => Number(id.slice(4))),
      Array.from({ length: seen.length }, (_, i) => i + 1),
      'ids 1..n with no gap',
    );
    assert.is(await reader.lastId(), expected.at(-1));
  });

  test('Companies have separate logs, each numbered from 1', async () => {
    const a = await daemonLog('cmp_a');
    const b = await daemonLog('cmp_b');
    const ea = await a.append({ ...blank, type: 'x:a' });
    const eb = await b.append({ ...blank, type: 'x:b' });
    assert.is(ea.id, 'evt_0000000000000001');
    assert.is(eb.id, 'evt_0000000000000001');
    assert.equal(
      (await a.query({})).events.map((e) => e.type),
      ['x:a'],
    );
    assert.equal(await b.get(eb.id), eb);
  });

  test('a follower on another daemon hears appends (LISTEN/NOTIFY), also after its connection was cut', async () => {
    const writer = await daemonLog('cmp_follow');
    const follower = await daemonLog('cmp_follow');
    const heard: string[] = [];
    let wake: (() => void) | null = null;
    const unsubscribe = follower.subscribe((lastId) => {
      heard.push(lastId);
      wake?.();
    });
    await notifiers.at(-1)!.settled(); // listening now (the follower's daemon's notifier is the last made)
    const next = () => new Promise<void>((resolve) => (wake = resolve));
    let woke = next();
    const first = await writer.append({ ...blank, type: 'f:one' });
    await woke;
    assert.ok(heard.includes(first.id));
    assert.equal(
      (await follower.query({})).events.map((e) => e.id),
      [first.id],
    );

    // Cut every listening connection (a proxy dropping idle links, a server restart): the notifier
    // reconnects and tells its followers the head, so nothing appended meanwhile is missed.
    woke = next();
    const admin = await fx.daemon(1);
    await admin.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'svc-listen'",
    );
    const second = await writer.append({ ...blank, type: 'f:two' });
    while (!heard.includes(second.id)) {
      await woke;
      woke = next();
    }
    assert.equal(
      (await follower.query({ since_id: first.id })).events.map((e) => e.id),
      [second.id],
    );
    unsubscribe();
  });

  test('close waits for appends already accepted', async () => {
    const log = await daemonLog('cmp_close');
    const pending = Array.from({ length: 50 }, (_, i) => log.append({ ...blank, type: 'c:x', content: i }));
    await log.close();
    const rows = await Promise.all(pending);
    assert.is(rows.length, 50);
    const other = await daemonLog('cmp_close');
    assert.is(await other.lastId(), rows.at(-1)!.id);
  });

  test('a NUL in a text field is a 400, and the rest of its batch is stored', async () => {
    const log = await daemonLog('cmp_nul');
    const [ok, bad] = await Promise.allSettled([
      log.append({ ...blank, type: 'n:ok' }),
      log.append({ ...blank, type: 'n:\u0000' }),
    ]);
    assert.is(ok.status, 'fulfilled');
    assert.is(bad.status, 'rejected');
    assert.is((bad as PromiseRejectedResult).reason.refusal, 'invalid');
  });

  test('a page from an instant (since) is planned for that instant, never kept on a generic plan', async () => {
    // One connection, so every query below meets the statements prepared on it.
    const daemon = await fx.daemon(1);
    const n = createEventNotifier({ url: fx.url, pool: daemon.pool });
    notifiers.push(n);
    const clock = new FakeClock();
    const log = openPostgresEventLog({ pool: daemon.pool, notifier: n, company: 'cmp_since', clock });
    for (let second = 0; second < 20; second++) {
      await Promise.all(Array.from({ length: 100 }, () => log.append({ ...blank, type: 's:x' })));
      clock.advance(1000);
    }
    const since = new Date(clock.now() - 1500).toISOString();
    for (let i = 0; i < 12; i++) assert.is((await log.query({ since, limit: 10 })).events.length, 10);
    // A generic plan guesses a third of the log matches any instant and walks it from the first
    // event: a page near the end of 1,000,000 events read them all.
    const { rows } = await daemon.pool.query<{ generic_plans: string }>(
      "SELECT generic_plans FROM pg_prepared_statements WHERE statement LIKE '%FROM svc_events WHERE%created_at >=%'",
    );
    assert.equal(
      rows.map((r) => Number(r.generic_plans)),
      rows.map(() => 0),
      'planned once for all instants',
    );
  });

  test.run();
}
