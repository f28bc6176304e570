import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner, PROOF_PASSWORD } from '../proof/lib/accounts.js';
import { call } from '../proof/lib/client.js';
import { runMain } from '../helpers/cli.js';
import { testPostgres } from '../helpers/postgres.js';
import { type Remote, startRemote } from './remote.js';

/**
 * SECURITY.md attack case 23, against a real daemon process: an audit entry edited, removed or
 * reordered in storage → `svc admin audit verify` names it and exits non-zero; no entry holds a
 * password, a secret or a token. On the data folder (the files edited by hand) and in team mode
 * (the rows edited in the database).
 */
const cluster = testPostgres();
const modes: Array<{ name: string; database: () => Promise<string | undefined> }> = [
  { name: 'JSON store', database: async () => undefined },
  ...(cluster ? [{ name: 'team mode', database: async () => (await cluster()).createDatabase() }] : []),
];

for (const mode of modes) {
  const test = suite(`SECURITY.md attack case 23 (audit) (${mode.name})`);
  let r: Remote;
  let database: string | undefined;
  test.before(async () => {
    database = await mode.database();
    r = await startRemote(database ? { database } : {});
  });
  test.after(async () => r?.stop());

  const verify = () => runMain(['admin', 'audit', 'verify', '--data', r.dataDir]);

  test('case 23: the trail holds no password, secret key or token; a tampered entry is named and verify fails', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'audited@example.com');
    const secretArg = 'sk_live_this_is_not_for_the_trail';
    await r.app.post('/api/auth/login', { email: 'audited@example.com', password: 'a wrong password 123' });
    await r.app.post('/api/auth/login', { email: 'audited@example.com', password: PROOF_PASSWORD });
    await call(r.daemon.url, '/api/mcp', {
      headers: { authorization: `Bearer ${w.sk}`, accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'quests', arguments: { action: 'create', title: secretArg } },
      },
    });
    assert.is((await r.app.get('/api/quests', { authorization: `Bearer ${w.sk}` })).status, 200);
    // The entries of key calls are group-committed after the answer: wait until they are visible.
    let all = '';
    for (let i = 0; i < 200 && !all.includes('rest.call'); i++) {
      all = (await call(r.daemon.url, '/api/dev/audit?format=jsonl', { headers: r.app.operator })).text;
      if (!all.includes('rest.call')) await new Promise((res) => setTimeout(res, 25));
    }
    assert.match(all, /mcp\.tools_call/);
    const stored = database
      ? all
      : readdirSync(join(r.dataDir, 'audit'))
          .map((f) => readFileSync(join(r.dataDir, 'audit', f), 'utf8'))
          .join('');
    for (const secret of [PROOF_PASSWORD, 'a wrong password', w.sk, secretArg, w.owner.auth.authorization!.slice(7)])
      assert.not.ok(stored.includes(secret) || all.includes(secret), `the trail holds ${secret.slice(0, 10)}…`);

    const held = await verify();
    assert.is(held.code, 0, held.err);
    const entries = all
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .reverse();
    const victim = entries[2]!;
    const next = entries.find((e: any) => e.stream === victim.stream && e.seq === victim.seq + 1);
    assert.ok(next, 'an entry after the victim in its stream');

    if (database) {
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      try {
        const pos = Number(victim.id.slice(4));
        await client.query(
          `UPDATE svc_audit_entries SET body = replace(body, '"action":"', '"action":"x') WHERE pos = $1`,
          [pos],
        );
        await expectBroken(victim.id, /edited/);
        await client.query(
          `UPDATE svc_audit_entries SET body = replace(body, '"action":"x', '"action":"') WHERE pos = $1`,
          [pos],
        );
        assert.is((await verify()).code, 0);
        await client.query('DELETE FROM svc_audit_entries WHERE pos = $1', [pos]);
        await expectBroken(next.id, /missing|prev/);
      } finally {
        await client.end();
      }
      return;
    }
    const file = join(r.dataDir, 'audit', readdirSync(join(r.dataDir, 'audit')).sort()[0]!);
    const original = readFileSync(file, 'utf8');
    const lines = original.trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes(`"id":"${victim.id}"`));
    const nextAt = lines.findIndex((l) => l.includes(`"id":"${next.id}"`));
    const write = (ls: string[]) => writeFileSync(file, `${ls.join('\n')}\n`);

    write(lines.map((l, i) => (i === at ? l.replace('"outcome":"', '"outcome":"x') : l)));
    await expectBroken(victim.id, /edited/);
    write(lines.filter((_, i) => i !== at));
    await expectBroken(next.id, /missing|prev/);
    const swapped = [...lines];
    [swapped[at], swapped[nextAt]] = [swapped[nextAt]!, swapped[at]!];
    write(swapped);
    await expectBroken(next.id, /reordered|missing/);
    writeFileSync(file, original);
    assert.is((await verify()).code, 0);
  });

  async function expectBroken(id: string, problem: RegExp) {
    const res = await verify();
    assert.is(res.code, 1, res.out);
    assert.ok(res.err.includes(id), `verify names ${id}: ${res.err}`);
    assert.match(res.err, problem);
  }

  test.run();
}
