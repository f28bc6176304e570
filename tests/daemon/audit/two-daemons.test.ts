import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp } from '../../helpers/test-app.js';
import { entry } from '../../helpers/audit.js';

/**
 * Team mode: two daemons append to the same streams at once. Each stream must stay one chain (no
 * two entries with the same prev), and an entry edited in the table is named by verify on either.
 */
const cluster = testPostgres();
if (cluster)
  test('two daemons writing the same streams keep one chain each; an edited row is named', async () => {
    const database = await (await cluster()).createDatabase();
    const a = await createTestApp({ database });
    const b = await createTestApp({ database });
    try {
      const user = await createUser(a, { tier: 'company' });
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        const app = i % 2 ? a : b;
        writes.push(app.deps.stores.audit.append(entry({ company_id: 'cmp_shared', target: `t${i}` })));
        writes.push(app.deps.stores.audit.append(entry({ target: `a${i}` })));
        if (i % 10 === 0) writes.push(app.post('/api/auth/login', { email: user.user.email, password: 'wrong wrong' }));
      }
      await Promise.all(writes);
      await Promise.all([a.deps.stores.audit.flush(), b.deps.stores.audit.flush()]);
      const v = await b.deps.stores.audit.verify();
      assert.ok(v.ok, JSON.stringify(v.broken));
      assert.is(v.heads.cmp_shared?.seq, 40);
      assert.is(v.heads.account?.seq, 44);
      const page = await a.deps.stores.audit.query({ viewer: 'all', limit: 1000 });
      assert.is(page.entries.length, 84);

      const client = new pg.Client({ connectionString: database });
      await client.connect();
      try {
        const target = page.entries.find((e, i) => i >= 30 && e.outcome === 'succeeded')!;
        await client.query(
          `UPDATE svc_audit_entries SET body = replace(body, '"outcome":"succeeded"', '"outcome":"refused"') WHERE pos = $1`,
          [Number(target.id.slice(4))],
        );
        const broken = await a.deps.stores.audit.verify();
        assert.not.ok(broken.ok);
        assert.is(broken.broken?.entry_id, target.id);
        // Through the operator route, as `svc admin audit verify` asks a team-mode daemon.
        const res = await b.get('/api/dev/audit/verify', b.operator);
        assert.is(res.status, 200);
        assert.is(res.body.broken.entry_id, target.id);
      } finally {
        await client.end();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

test.run();
