import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEventNotifier, type EventNotifier } from '../../../../daemon/store/postgres/event-notifier.js';
import { openPostgresEventLog, type PostgresEventLog } from '../../../../daemon/store/postgres/event-log.js';
import type { Database } from '../../../../daemon/store/postgres/connect.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { eventually } from '../../../helpers/team-daemons.js';
import { PgFixture } from './pg-fixture.js';

/**
 * The notifier LISTENs only while its daemon has a follower (plus a linger): a daemon nobody
 * follows is not woken by every other daemon's commit. A follower that appears after events were
 * committed (and notified to nobody here) is told the head once listening starts, so it pages on.
 */
const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres event notifier: listens only while followed');
  const notifiers: EventNotifier[] = [];
  let admin: Database;
  const blank = { agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null };
  test.before(async () => {
    await fx.setup();
    admin = await fx.daemon(1);
  });
  test.after(async () => {
    await Promise.all(notifiers.map((n) => n.close()));
    await fx.closeAll();
  });
  const daemonLog = async (company: string): Promise<PostgresEventLog & { notifier: EventNotifier }> => {
    const daemon = await fx.daemon(3);
    const notifier = createEventNotifier({ url: fx.url, pool: daemon.pool, retryMs: 20, lingerMs: 20 });
    notifiers.push(notifier);
    const log = openPostgresEventLog({ pool: daemon.pool, notifier, company, clock: new FakeClock() });
    return Object.assign(log, { notifier });
  };
  /** What the listening connections of this database last ran (LISTEN / UNLISTEN), as the server shows it. */
  const listening = async () =>
    (
      await admin.pool.query<{ query: string }>(
        "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-listen'",
      )
    ).rows.map((r) => r.query);

  test('no follower: no LISTEN; a late follower is told the head of events committed before it listened', async () => {
    const writer = await daemonLog('cmp_late');
    const follower = await daemonLog('cmp_late');
    const before = await writer.append({ ...blank, type: 'l:before' });
    assert.equal(await listening(), [], 'no daemon has a follower: no listening connection at all');

    const heard: string[] = [];
    const unsubscribe = follower.subscribe((lastId) => heard.push(lastId));
    await follower.notifier.settled();
    assert.equal(heard, [before.id], 'told the head once listening, though that commit notified nobody here');
    assert.equal(await listening(), ['LISTEN svc_events']);

    const after = await writer.append({ ...blank, type: 'l:after' });
    await eventually('the notification of a later append', async () => (heard.includes(after.id) ? true : undefined));

    // The last follower leaves: after the linger the daemon stops listening (its connection stays open).
    unsubscribe();
    await eventually('UNLISTEN after the linger', async () => {
      await follower.notifier.settled();
      return (await listening()).join() === 'UNLISTEN svc_events' ? true : undefined;
    });
    const count = heard.length;
    await writer.append({ ...blank, type: 'l:unheard' });
    assert.is(heard.length, count, 'an unsubscribed listener is not called');
  });

  test('a follower coming back listens again and is told the head it missed meanwhile', async () => {
    const writer = await daemonLog('cmp_again');
    const follower = await daemonLog('cmp_again');
    let unsubscribe = follower.subscribe(() => {});
    await follower.notifier.settled();
    unsubscribe();
    await eventually('UNLISTEN after the linger', async () => {
      await follower.notifier.settled();
      return (await listening()).includes('LISTEN svc_events') ? undefined : true;
    });
    const missed = await writer.append({ ...blank, type: 'a:missed' });
    const heard: string[] = [];
    unsubscribe = follower.subscribe((lastId) => heard.push(lastId));
    // Appended while listening starts again: heard either as the head or as a notification.
    const racing = writer.append({ ...blank, type: 'a:racing' });
    await follower.notifier.settled();
    const raced = await racing;
    await eventually('the racing append', async () => (heard.includes(raced.id) ? true : undefined));
    assert.ok(heard.includes(missed.id) || heard.includes(raced.id), 'a head at or past the missed event');
    const page = await follower.query({ since_id: missed.id });
    assert.equal(
      page.events.map((e) => e.id),
      [raced.id],
    );
    unsubscribe();
  });

  test.run();
}
