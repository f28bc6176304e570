import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner } from '../proof/lib/accounts.js';
import { bearer, operatorHeaders } from '../proof/lib/client.js';
import { eventually, openTeam, pageAll, type TeamDaemon } from '../helpers/team-daemons.js';

/**
 * Team mode: SIGKILL one of two daemons while both take concurrent appends and key calls; every
 * append that was acknowledged (2xx) is found through the survivor, with what was written, the log
 * has no gap, and every key call the killed daemon answered has its audit entry.
 */
const team = await openTeam();

if (team) {
  test('SIGKILL under load: every acknowledged append is found through the other daemon', async () => {
    const [A, B] = await Promise.all([team.start(), team.start()]);
    try {
      const owner = await companyOwner(A.url, A.dataDir, 'kill@example.test');
      const acked = new Map<string, string>();
      const writer = async (d: TeamDaemon, name: string, max: number) => {
        for (let i = 0; i < max; i++) {
          const tag = `${name}-${i}`;
          const a = await d.call('/api/events/trigger', {
            headers: owner.tenant,
            body: { type: 'load:append', content: { tag } },
          });
          if (a.status >= 200 && a.status < 300) acked.set(a.body.event.id, tag);
          else if (d === A)
            return; // A is gone: its connections fail (status 0), never a false 2xx
          else throw new Error(`B answered ${a.status}: ${a.text}`);
        }
      };
      // Each answered validate left its audit entry (committed in a group with the others) first.
      const validated = new Set<string>();
      const validator = async () => {
        for (;;) {
          const a = await A.call('/api/mcp/validate', { method: 'POST', headers: bearer(owner.sk) });
          const requestId = a.headers?.get('x-request-id');
          if (a.status === 200 && requestId) validated.add(requestId);
          else if (a.status === 0 || a.status === -1) return;
          else throw new Error(`validate answered ${a.status}: ${a.text}`);
        }
      };
      const onA = [writer(A, 'a1', 10_000), writer(A, 'a2', 10_000), writer(A, 'a3', 10_000), validator(), validator()];
      const onB = [writer(B, 'b1', 80), writer(B, 'b2', 80), writer(B, 'b3', 80)];
      // Kill while appends are in flight on both: once A has acknowledged some and B is mid-way.
      await eventually('appends acknowledged by A', async () =>
        [...acked.values()].filter((t) => t.startsWith('a')).length >= 40 ? true : undefined,
      );
      await A.kill();
      await Promise.all([...onA, ...onB]);

      const ids = await pageAll(B, owner.tenant, 1000, 'load:append');
      for (const [id, tag] of acked) assert.ok(ids.includes(id), `acknowledged ${id} (${tag}) is in the log`);
      const seqs = ids.map((id) => Number(id.slice(4)));
      assert.ok(
        seqs.every((s, i) => i === 0 || s > seqs[i - 1]!),
        'ids in order',
      );
      for (const [id, tag] of [...acked].slice(0, 20)) {
        const event = (await B.call(`/api/events/${id}`, { headers: owner.tenant })).body;
        assert.equal(JSON.stringify(event).includes(`"tag":"${tag}"`), true, `${id} holds what was written`);
      }
      assert.ok([...acked.values()].filter((t) => t.startsWith('b')).length === 240, 'B kept serving');
      const trail = await B.call('/api/dev/audit?action=key.validate&format=jsonl', {
        headers: operatorHeaders(B.dataDir),
      });
      assert.is(trail.status, 200, trail.text);
      const recorded = new Set(
        trail.text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).request_id as string),
      );
      assert.ok(validated.size > 0, 'A answered some validates before the kill');
      const lost = [...validated].filter((id) => !recorded.has(id));
      assert.equal(lost, [], 'every validate A answered has its audit entry');
    } finally {
      await Promise.all([A.stop(), B.stop()]);
    }
  });
}

test.run();
