import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createArchiveWriter } from '../../../daemon/transfer/archive-writer.js';
import { runMain } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { runtimeFolder } from '../../helpers/transfer-folder.js';

/**
 * What `svc admin export|import` refuse, each with one line and a non-zero exit, the target left
 * as it was: a running daemon, a target that is not empty, an archive cut short, of another
 * format version, changed by hand, or not an archive at all.
 */
let archive = '';
const archiveText = () => readFileSync(archive, 'utf8');
const variant = (name: string, text: string) => {
  const file = join(tempDir('svc-bad-archive'), name);
  writeFileSync(file, text);
  return file;
};

test.before(async () => {
  archive = join(tempDir('svc-archive'), 'good.svc-archive');
  const done = await runMain(['admin', 'export', '--data', await runtimeFolder(), '--out', archive]);
  assert.is(done.code, 0, done.err);
});

/** Runs an import of `file` into a new folder and checks it was refused with `message`, leaving nothing. */
async function refusedImport(file: string, message: RegExp) {
  const parent = tempDir('svc-import-parent');
  const target = join(parent, 'data');
  const res = await runMain(['admin', 'import', '--in', file, '--data', target]);
  assert.is(res.code, 1, res.out);
  assert.is(res.err.trim().split('\n').length, 1, res.err);
  assert.match(res.err, message);
  assert.equal(readdirSync(parent), [], 'no target, no staging folder');
}

test('an archive cut short (mid-line, or at a line end) is refused', async () => {
  const text = archiveText();
  // Five characters into the fourth line: whatever the archive holds, a cut inside a line.
  const cut = text.split('\n').slice(0, 3).join('\n').length + 6;
  await refusedImport(variant('mid-line', text.slice(0, cut)), /line 4\): the line is not JSON/);
  const lines = text.split('\n');
  await refusedImport(variant('at-line-end', `${lines.slice(0, -3).join('\n')}\n`), /closing line is missing/);
});

test('another format version is refused, naming both', async () => {
  const [header, ...rest] = archiveText().split('\n');
  const newer = JSON.stringify({ ...JSON.parse(header!), svc_archive: 2 });
  await refusedImport(
    variant('v2', [newer, ...rest].join('\n')),
    /archive format 2 is not supported by this svc \(it reads format 1/,
  );
});

test('a line changed by hand (still valid JSON) fails the checksum; so does a line added after the end', async () => {
  const text = archiveText();
  await refusedImport(variant('tampered', text.replace('"name":"Ada"', '"name":"Eve"')), /does not match its checksum/);
  await refusedImport(variant('appended', `${text}{"table":"secrets"}\n`), /more after the closing line/);
  await refusedImport(variant('not-ours', '{"hello":1}\n'), /not an svc archive/);
  await refusedImport(join(tempDir('svc-none'), 'missing'), /no such file/);
});

test('a record that cannot be stored, found half-way through the load, leaves nothing behind', async () => {
  const file = join(tempDir('svc-odd'), 'no-id.svc-archive');
  const writer = createArchiveWriter(file, { svc_version: 'test', source: 'data-folder', created_at: '' });
  writer.add({ table: 'runtime.agents', company: 'cmp_a', record: { id: 'agt_1', name: 'ok' } });
  writer.add({ table: 'runtime.agents', company: 'cmp_a', record: { name: 'no id' } });
  writer.finish();
  await refusedImport(file, /runtime\.agents record has no id/);
});

test('a target folder that is not empty, or has a daemon running, is refused and left as it was', async () => {
  const target = tempDir('svc-busy');
  writeFileSync(join(target, 'keep.txt'), 'mine');
  const res = await runMain(['admin', 'import', '--in', archive, '--data', target]);
  assert.is(res.code, 1);
  assert.match(res.err, `the data folder ${target} is not empty`);
  assert.equal(readdirSync(target), ['keep.txt']);

  await withLiveLock(async (folder, pid) => {
    const imported = await runMain(['admin', 'import', '--in', archive, '--data', folder]);
    assert.is(imported.code, 1);
    assert.match(imported.err, `a daemon (pid ${pid}) is running on the data folder ${folder}`);
    const out = join(tempDir('svc-out'), 'a.svc-archive');
    const exported = await runMain(['admin', 'export', '--data', folder, '--out', out]);
    assert.is(exported.code, 1);
    assert.match(exported.err, `a daemon (pid ${pid}) is running on the data folder ${folder}: stop it first`);
    assert.not.ok(existsSync(out) || existsSync(`${out}.partial`), 'no archive written');
  });
});

test('export refuses to overwrite a file, and --data with --database is a usage error', async () => {
  const res = await runMain(['admin', 'export', '--data', await runtimeFolder(), '--out', archive]);
  assert.is(res.code, 1);
  assert.match(res.err, `${archive} already exists`);
  const out = join(tempDir('svc-out'), 'b.svc-archive');
  writeFileSync(`${out}.partial`, 'left by a killed export');
  const partial = await runMain(['admin', 'export', '--data', await runtimeFolder(), '--out', out]);
  assert.is(partial.code, 1);
  assert.match(partial.err, `${out}.partial is in the way`);
  assert.not.ok(existsSync(out));
  const both = await runMain(['admin', 'export', '--data', 'x', '--database', 'postgres://h/db', '--out', 'y']);
  assert.is(both.code, 2);
  assert.match(both.err, 'pass --data or --database, not both');
  const nothing = await runMain(['admin', 'export', '--data', tempDir('svc-empty'), '--out', join(tempDir('o'), 'x')]);
  assert.is(nothing.code, 1);
  assert.match(nothing.err, 'there is no svc data folder at');
});

/** A data folder whose lock names a live process other than this one (as a running daemon's does). */
async function withLiveLock(run: (folder: string, pid: number) => Promise<void>) {
  const folder = await runtimeFolder();
  const other = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const pid = other.pid!;
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'daemon.lock'), JSON.stringify({ pid, url: null, started_at: '', version: '' }));
    await run(folder, pid);
    assert.ok(existsSync(join(folder, 'daemon.lock')), 'the daemon keeps its lock');
  } finally {
    other.kill();
  }
}

test.run();
