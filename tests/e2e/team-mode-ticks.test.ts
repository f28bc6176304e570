import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { companyOwner } from '../proof/lib/accounts.js';
import { expectStatus } from '../proof/lib/client.js';
import { eventually, openTeam, pageAll } from '../helpers/team-daemons.js';

/**
 * Team mode: a schedule tick fires exactly once across daemons and restarts. Both daemons walk the
 * hourly schedule the moment they start; their clocks (one offset file) are stepped past the next
 * hour, so both restart into the same due tick at once: one fires it. Restarting both again fires
 * nothing more. Each daemon is stopped with SIGTERM, which finishes a walk in progress first, so
 * the count is read once every walk that could fire has run.
 */
const team = await openTeam();
const HOUR = 3600_000;

if (team) {
  test('an hourly tick fires once when two daemons restart into it together, and not again after', async () => {
    let [A, B] = await Promise.all([team.start(), team.start()]);
    const owner = await companyOwner(A.url, A.dataDir, 'ticks@example.test');
    const type = 'schedule:0 * * * *';
    expectStatus(
      await B.call('/api/events', { headers: owner.tenant, body: { type, tool_calls: [] } }),
      201,
      'schedule',
    );
    await Promise.all([A.stop(), B.stop()]);
    // Five minutes past the next full hour: one tick is due, and none more for 55 minutes.
    const now = Date.now();
    team.advance(Math.ceil(now / HOUR) * HOUR + 5 * 60_000 - now);
    const fired = async () => (await pageAll(A, owner.tenant, 100, type)).length;
    const stored = async () => {
      const db = new pg.Client({ connectionString: team.databaseUrl });
      await db.connect();
      try {
        return (await db.query('SELECT count(*)::int AS n FROM svc_events WHERE type = $1', [type])).rows[0].n;
      } finally {
        await db.end();
      }
    };
    for (let round = 0; round < 2; round++) {
      [A, B] = await Promise.all([team.start(A.dataDir), team.start(B.dataDir)]);
      if (round === 0) await eventually('the tick fired', async () => ((await fired()) > 0 ? true : undefined));
      await Promise.all([A.stop(), B.stop()]);
      assert.is(await stored(), 1, `round ${round + 1}: fired exactly once`);
    }
  });
}

test.run();
