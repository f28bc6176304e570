import type { BenchCase, BenchRow } from '../harness.js';
import { alternate, benchDatabase, startBenchDaemon, type BenchDaemon } from '../team.js';
import { createWalletSecretKey } from '../wallet-key.js';
import { loginBenchUser } from './30-me.js';

/**
 * Issue 15's team-mode targets, each a ratio of two set-ups measured in the same run in alternating
 * slices: authenticated reads on PostgreSQL against the JSON store (one daemon each, >= 0.5), and
 * durable appends through the HTTP API with two daemons on one database against one daemon on it
 * (>= 0.8: on one 2-core machine a second daemon cannot add throughput, so this shows what the
 * coordination costs; docs/deploy.md says what to expect with a machine per daemon).
 */
const teamMode: BenchCase = {
  name: 'team mode (PostgreSQL)',
  async run(env) {
    const database = await benchDatabase();
    const daemons: BenchDaemon[] = [];
    try {
      const [json, a, b] = await Promise.all([
        startBenchDaemon(env),
        startBenchDaemon(env, database),
        startBenchDaemon(env, database),
      ]);
      daemons.push(json, a, b);
      const rows: BenchRow[] = [];
      const meJson = await loginBenchUser(json.env, 'bench-team@example.com', 'a benchmark password');
      const mePg = await loginBenchUser(a.env, 'bench-team@example.com', 'a benchmark password');
      const me = await alternate(
        env,
        { urls: [`${json.url}/api/me`], options: { headers: { authorization: `Bearer ${meJson}` } } },
        { urls: [`${a.url}/api/me`], options: { headers: { authorization: `Bearer ${mePg}` } } },
      );
      rows.push(row('GET /api/me on PostgreSQL', me.b, me.a, 'JSON store', '>= 0.5'));

      const [skJson, skPg] = await Promise.all([
        createWalletSecretKey(json.env, 'Bench Co'),
        createWalletSecretKey(a.env, 'Bench Co'),
      ]);
      const post = (sk: string) => ({ method: 'POST' as const, headers: { authorization: `Bearer ${sk}` } });
      const validate = await alternate(
        env,
        { urls: [`${json.url}/api/mcp/validate`], options: post(skJson) },
        { urls: [`${a.url}/api/mcp/validate`], options: post(skPg) },
      );
      rows.push(row('POST /api/mcp/validate on PostgreSQL', validate.b, validate.a, 'JSON store', '>= 0.5'));

      const append = { ...post(skPg), body: { type: 'bench:append', content: { text: 'one durable event' } } };
      const appends = await alternate(
        env,
        { urls: [`${a.url}/api/events/trigger`], options: append },
        { urls: [`${a.url}/api/events/trigger`, `${b.url}/api/events/trigger`], options: append },
      );
      rows.push(row('durable appends (HTTP), 2 daemons, 1 database', appends.b, appends.a, '1 daemon', '>= 0.8'));
      return rows;
    } finally {
      await Promise.all(daemons.map((d) => d.stop()));
    }
  },
};
export default teamMode;

const row = (name: string, value: number, baseline: number, baselineName: string, target: string): BenchRow => ({
  name,
  value,
  unit: 'req/s',
  baseline,
  baselineName,
  target,
});
