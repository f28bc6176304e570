import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { signUpVerified } from '../proof/lib/accounts.js';
import { eventually, openTeam } from '../helpers/team-daemons.js';

/**
 * A team-mode daemon whose database stops accepting connections answers 503 database_unavailable
 * with Retry-After (never a 500), and serves again, without a restart, once the database is back.
 */
const team = await openTeam();

if (team) {
  test('database unavailable: 503 with Retry-After, then served again without a restart', async () => {
    const daemon = await team.start();
    const admin = new pg.Client({ connectionString: team.databaseUrl.replace(/\/svc_test_\w+\?/, '/postgres?') });
    await admin.connect();
    const name = /\/(svc_test_\w+)\?/.exec(team.databaseUrl)![1]!;
    try {
      const user = await signUpVerified(daemon.url, daemon.dataDir, 'outage@example.test');
      assert.is((await daemon.call('/api/me', { headers: user.auth })).status, 200);
      // A name this test made (the helper's), never input: identifiers cannot be bound.
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      const down = await daemon.call('/api/me', { headers: user.auth });
      assert.is(down.status, 503, down.text);
      assert.is(down.body.code, 'database_unavailable');
      assert.is(down.headers?.get('retry-after'), '5');
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await eventually('served again', async () => {
        const again = await daemon.call('/api/me', { headers: user.auth });
        assert.ok(again.status === 200 || again.status === 503, again.text);
        return again.status === 200 ? true : undefined;
      });
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.end();
      await daemon.stop();
    }
  });
}

test.run();
