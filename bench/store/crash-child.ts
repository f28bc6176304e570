/**
 * A writer that ends with `kill -9` on itself, so the bench can time a start on files exactly as a
 * crash leaves them. `node crash-child.js journal <dir> <name> <bytes>`: writes sessions into the
 * space until its journal holds <bytes> since the snapshot. `node crash-child.js events <dir>
 * <tail>`: appends to the event log until a periodic index snapshot is in place, then <tail> more.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../daemon/clock.js';
import { openEventLog } from '../../daemon/store/event-log/index.js';
import { openJournalSpace } from '../../daemon/store/journal/index.js';
import { benchSession, sessionSpec } from './synthetic.js';

const [mode, dir, a, b] = process.argv.slice(2);
const WRITERS = 32;

async function inLoops(more: () => boolean, step: (i: number) => Promise<unknown>): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (more()) await step(n++);
    }),
  );
}

if (mode === 'journal') {
  const space = await openJournalSpace(dir!, { name: a! });
  const t = space.define(sessionSpec);
  const bytes = Number(b);
  await inLoops(
    () => space.stats().bytes_since_snapshot < bytes,
    (i) => space.write((tx) => tx.put(t, benchSession(i, 'tail'))),
  );
} else if (mode === 'events') {
  const log = await openEventLog(dir!, { clock: systemClock });
  const snapshot = join(dir!, 'events', 'index.snapshot');
  const event = (i: number) => ({
    type: 'agent:message',
    agent_id: `agt_${i % 50}`,
    session_id: `ses_${i % 1000}`,
    quest_id: null,
    causation_id: null,
    content: { text: `tail ${i}` },
  });
  await inLoops(
    () => !existsSync(snapshot),
    (i) => log.append(event(i)),
  );
  let tail = Number(a);
  await inLoops(
    () => tail-- > 0,
    (i) => log.append(event(i)),
  );
}
process.kill(process.pid, 'SIGKILL');
