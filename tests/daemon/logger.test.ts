import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBufferedSink, createDaemonLogger, createMemoryLogger } from '../../daemon/logger.js';
import { createRequestIds } from '../../daemon/http/request-log.js';

function fakeOut() {
  const writes: string[] = [];
  return { write: (chunk: string) => void writes.push(chunk), writes };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

test('lines written in one turn of the event loop reach the output in one write', async () => {
  const out = fakeOut();
  const sink = createBufferedSink(out);
  sink.write('a');
  sink.write('b');
  sink.write('c');
  assert.equal(out.writes, []);
  await nextTurn();
  assert.equal(out.writes, ['a\nb\nc\n']);
  sink.write('d');
  await nextTurn();
  assert.equal(out.writes, ['a\nb\nc\n', 'd\n']);
});

test('a batch over the size limit is written at once, and flush() writes what is pending', () => {
  const out = fakeOut();
  const sink = createBufferedSink(out, 10);
  sink.write('0123456789');
  assert.equal(out.writes, ['0123456789\n']);
  sink.write('x');
  sink.flush();
  assert.equal(out.writes, ['0123456789\n', 'x\n']);
  sink.flush();
  assert.is(out.writes.length, 2, 'nothing pending, nothing written');
});

test('lines still pending when the process exits are written, not lost', () => {
  const logger = new URL('../../daemon/logger.js', import.meta.url).href;
  const script = `const { createDaemonLogger } = await import(${JSON.stringify(logger)});
    const log = createDaemonLogger(process.stdout);
    for (let i = 0; i < 1000; i++) log.info('line ' + i);
    process.exit(0);`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const lines = stdout.trim().split('\n');
  assert.is(lines.length, 1000);
  assert.ok(lines[999]!.endsWith('info line 999'));
});

test('log lines: ISO time, level, message, then the fields as JSON (errors with their message)', () => {
  const log = createMemoryLogger();
  log.warn('disk slow', { ms: 12 });
  log.error('failed', { err: new Error('boom') });
  assert.match(log.lines[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z warn disk slow \{"ms":12\}$/);
  assert.ok(log.lines[1]!.includes('"message":"boom"'));
  const daemonLog = createDaemonLogger(fakeOut());
  daemonLog.info('x');
  daemonLog.flush();
});

test('fields are JSON whether or not they hold an object: plain values as JSON.stringify writes them, errors at any depth with their message', () => {
  const log = createMemoryLogger();
  const plain = { request_id: 'req_x"\n', ms: 3, ok: true, none: null, gone: undefined, big: 1e21, nan: Number.NaN };
  log.info('plain', plain);
  log.info('nested', { request_id: 'req_y', err: { cause: new Error('deep') } });
  log.info('error as fields', new Error('whole') as unknown as Record<string, unknown>);
  assert.ok(log.lines[0]!.endsWith(` info plain ${JSON.stringify(plain)}`));
  assert.ok(log.lines[1]!.includes('"cause":{"name":"Error","message":"deep"'));
  assert.ok(log.lines[2]!.includes('"message":"whole"'));
});

test('request ids are unique, url-safe and distinct between processes', () => {
  const a = createRequestIds();
  const b = createRequestIds();
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) seen.add(a());
  assert.is(seen.size, 5000);
  const sample = [...seen][4999]!;
  assert.match(sample, /^req_[0-9a-z]{12}[0-9a-z]{6,}$/);
  assert.is.not(a().slice(0, 16), b().slice(0, 16), 'a random prefix per process');
});

test.run();
