import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDaemon } from '../../../daemon/main.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Nothing else removes the temp files of writes cut short by a SIGKILL.
test('start-up removes leftover .tmp files of the data folder and of Company folders, and nothing else', async () => {
  const data = tempDir('svc-data');
  const events = join(data, 'companies', 'cmp_x', 'events');
  mkdirSync(events, { recursive: true });
  const leftovers = [
    join(data, '.accounts.json.4242.tmp'),
    join(data, 'companies', 'cmp_x', '.runtime.json.77.tmp'),
    join(events, 'index.json.tmp'),
  ];
  const kept = [join(data, 'notes.txt'), join(events, 'segment-000001.jsonl'), join(data, 'companies', 'cmp_x', 'tmp')];
  for (const f of [...leftovers, ...kept]) writeFileSync(f, 'x');
  const lines: string[] = [];
  const daemon = await startDaemon({ port: 0, data, logOutput: { write: (l: string) => void lines.push(l) } });
  await daemon.stop();
  for (const f of leftovers) assert.not.ok(existsSync(f), `${f} should be gone`);
  for (const f of kept) assert.ok(existsSync(f), `${f} should stay`);
  assert.ok(lines.join('').includes('removed unfinished temp files'));
});

test.run();
