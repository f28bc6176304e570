import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileAuditStore, verifyAuditFolder } from '../../../daemon/store/audit/file-audit.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { entry } from '../../helpers/audit.js';

const segment = (dir: string) => join(dir, 'audit', '000001.jsonl');

async function folderWith(n: number, over = {}) {
  const dir = tempDir('svc-audit');
  const audit = await openFileAuditStore(dir);
  for (let i = 0; i < n; i++) await audit.append(entry({ target: `t${i}`, ...over }));
  await audit.close();
  return dir;
}

const lines = (dir: string) => readFileSync(segment(dir), 'utf8').trimEnd().split('\n');
const rewrite = (dir: string, ls: string[]) => writeFileSync(segment(dir), `${ls.join('\n')}\n`);

test('a reopened folder keeps its entries and the chain goes on from them', async () => {
  const dir = await folderWith(3);
  const audit = await openFileAuditStore(dir);
  const next = await audit.append(entry());
  assert.is(next.seq, 4);
  assert.is(next.id, 'aud_0000000000000004');
  assert.is((await audit.query({ viewer: 'all', limit: 10 })).entries.length, 4);
  assert.ok((await audit.verify()).ok);
  await audit.close();
});

test('an edited entry: verify names it', async () => {
  const dir = await folderWith(4);
  const ls = lines(dir);
  ls[2] = ls[2]!.replace('"outcome":"succeeded"', '"outcome":"refused"');
  rewrite(dir, ls);
  const v = verifyAuditFolder(dir);
  assert.not.ok(v.ok);
  assert.is(v.broken?.entry_id, 'aud_0000000000000003');
  assert.match(v.broken!.problem, /edited/);
});

test('a removed entry: verify names the one after the gap', async () => {
  const dir = await folderWith(4);
  const ls = lines(dir);
  ls.splice(1, 1);
  rewrite(dir, ls);
  const v = verifyAuditFolder(dir);
  assert.not.ok(v.ok);
  assert.is(v.broken?.entry_id, 'aud_0000000000000003');
});

test('reordered entries: verify names the first out of place', async () => {
  const dir = await folderWith(4);
  const ls = lines(dir);
  [ls[1], ls[2]] = [ls[2]!, ls[1]!];
  rewrite(dir, ls);
  const v = verifyAuditFolder(dir);
  assert.not.ok(v.ok);
  assert.is(v.broken?.entry_id, 'aud_0000000000000003');
});

test('a recomputed hash on an edited entry still breaks the chain at the entry after it', async () => {
  const { hashOf } = await import('../../../daemon/store/audit/chain.js');
  const dir = await folderWith(4);
  const ls = lines(dir);
  const e = JSON.parse(ls[1]!);
  e.reason = 'edited';
  e.hash = hashOf(e);
  ls[1] = JSON.stringify(e);
  rewrite(dir, ls);
  const v = verifyAuditFolder(dir);
  assert.is(v.broken?.entry_id, 'aud_0000000000000003');
  assert.match(v.broken!.problem, /prev/);
});

test('a line that is not an entry is named; a torn last line (a write in flight) is not a break', async () => {
  const dir = await folderWith(2);
  appendFileSync(segment(dir), '{"id":"aud_00000');
  assert.ok(verifyAuditFolder(dir).ok);
  const audit = await openFileAuditStore(dir);
  assert.match(audit.recovery.join('\n'), /unfinished last line/);
  assert.is((await audit.append(entry())).seq, 3);
  await audit.close();
  assert.ok(verifyAuditFolder(dir).ok);
  const ls = lines(dir);
  ls[0] = 'not json';
  rewrite(dir, ls);
  const v = verifyAuditFolder(dir);
  assert.not.ok(v.ok);
  assert.match(v.broken!.problem, /000001\.jsonl line 1/);
});

test('retention removes whole old segments after a checkpoint, and verify still holds (and fails without it)', async () => {
  const dir = tempDir('svc-audit');
  const audit = await openFileAuditStore(dir, { segmentBytes: 600 });
  for (let i = 0; i < 6; i++) await audit.append(entry({ at: '2025-01-01T00:00:00.000Z', target: `old${i}` }));
  for (let i = 0; i < 2; i++) await audit.append(entry({ target: `new${i}` }));
  const before = readdirSync(join(dir, 'audit')).length;
  const removed = await audit.sweep('2026-01-01T00:00:00.000Z', '2026-11-28T10:00:00.000Z');
  assert.ok(removed > 0, 'old segments removed');
  assert.ok(readdirSync(join(dir, 'audit')).length < before);
  const v = await audit.verify();
  assert.ok(v.ok, JSON.stringify(v.broken));
  const page = await audit.query({ viewer: 'all', limit: 100 });
  assert.is(page.entries[0]!.action, 'audit.retention');
  assert.is(page.entries[0]!.details.removed, removed);
  await audit.close();
  // The checkpoint is what makes the shorter chain hold: without it the gap is named.
  const files = readdirSync(join(dir, 'audit')).sort();
  const last = join(dir, 'audit', files.at(-1)!);
  const kept = readFileSync(last, 'utf8')
    .trimEnd()
    .split('\n')
    .filter((l) => !l.includes('audit.retention'));
  writeFileSync(last, `${kept.join('\n')}\n`);
  assert.not.ok(verifyAuditFolder(dir).ok);
});

test('a failed disk write is not acknowledged, and later entries chain to what is on disk', async () => {
  const dir = tempDir('svc-audit');
  let fail = false;
  const { nodeSegmentIo } = await import('../../../daemon/store/disk/segment-io.js');
  const audit = await openFileAuditStore(dir, {
    io: {
      ...nodeSegmentIo,
      write: (fd, data, pos) => (fail ? Promise.reject(new Error('disk full')) : nodeSegmentIo.write(fd, data, pos)),
    },
  });
  await audit.append(entry());
  fail = true;
  await audit.append(entry()).then(
    () => assert.unreachable('acknowledged'),
    (err: Error) => assert.match(err.message, /disk full/),
  );
  fail = false;
  const third = await audit.append(entry());
  assert.is(third.seq, 2);
  await audit.close();
  assert.ok(verifyAuditFolder(dir).ok);
});

test.run();
