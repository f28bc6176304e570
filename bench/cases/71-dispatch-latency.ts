import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../daemon/clock.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { cryptoRandom } from '../../daemon/random.js';
import { openCompanyRuntime } from '../../daemon/company/open-company.js';
import { createSealer } from '../../daemon/store/sealer.js';
import type { BenchCase, BenchRow } from '../harness.js';

/**
 * Dispatch latency: from an event's append to its configured tool call's effect — a
 * quest created and durable — in process, through a real Company runtime (JSON Lines event log,
 * matcher engine, detectors wired). `emit` resolves once the tool calls ran, so the effect is in
 * place when it returns. Sequential emits: this is latency, not throughput.
 */
const N = 400;

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/**
 * `plain`: the simplest rule (fixed args, nothing else of its pattern). `references`: the same
 * rule with `{{event.…}}` references to resolve, plus a paused rule of the same pattern, so each
 * dispatch also writes a `not_fired` entry for trace. Both run in the same process, one after the other.
 */
type Variant = 'plain' | 'references' | 'retry' | 'fail' | 'fail-retry';

async function measure(
  storage: 'memory' | 'file',
  variant: Variant = 'plain',
): Promise<{ appendToEffect: number[]; emitTotal: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-dispatch-'));
  const timer = { set: () => null, clear: () => {} }; // no minute walks during the measurement
  const runtime = await openCompanyRuntime({
    company: { id: 'cmp_bench', name: 'bench', owner_id: 'usr_bench' },
    dir,
    storage,
    clock: systemClock,
    ids: createIdGenerator(systemClock, cryptoRandom),
    sealer: createSealer(randomBytes(32)),
    random: cryptoRandom,
    schedulerTimer: timer,
    retryTimer: timer, // no retry walks either: `fail-retry` measures scheduling a retry, not running it
  });
  const events = runtime.services.events;
  // `retry` is the plain rule with a retry policy (its calls succeed: the bookkeeping of
  // every firing); `fail` a call that fails, `fail-retry` the same with a retry scheduled each time.
  const retry = { max_attempts: 3, backoff: { initial_ms: 3_600_000, max_ms: 3_600_000, jitter: 'full' as const } };
  const failing = [{ tool: 'message_to', args: { to: 'nobody', text: 'x' } }];
  if (variant === 'plain' || variant === 'retry') {
    await events.create({
      type: 'webhook:bench',
      tool_calls: [{ tool: 'quests.create', args: { title: 'from the bench' } }],
      ...(variant === 'retry' && { retry }),
    });
  } else if (variant === 'fail' || variant === 'fail-retry') {
    await events.create({ type: 'webhook:bench', tool_calls: failing, ...(variant === 'fail-retry' && { retry }) });
  } else {
    await events.create({
      type: 'webhook:bench',
      tool_calls: [{ tool: 'quests.create', args: { title: 'from the bench: {{event.type}} #{{event.content.i}}' } }],
    });
    await events.create({
      type: 'webhook:bench',
      enabled: false,
      tool_calls: [{ tool: 'quests.create', args: { title: 'paused' } }],
    });
  }
  let appendedAt = 0;
  const stop = events.subscribe((e) => {
    if (e.type === 'webhook:bench') appendedAt = performance.now();
  });
  const appendToEffect: number[] = [];
  const emitTotal: number[] = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const { fired } = await events.emit({ type: 'webhook:bench', content: { i } });
    const done = performance.now();
    const failed = variant === 'fail' || variant === 'fail-retry';
    if (fired[0]?.ok === failed) throw new Error(`tool call: ${fired[0]?.error ?? 'worked where it should fail'}`);
    if (i >= 20) {
      // the first emits warm the JIT and the log's files
      appendToEffect.push(done - appendedAt);
      emitTotal.push(done - started);
    }
  }
  stop();
  const quests = (await runtime.services.quests.list()).length;
  if (quests !== (variant === 'fail' || variant === 'fail-retry' ? 0 : N))
    throw new Error('not every emit created its quest');
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
  return { appendToEffect, emitTotal };
}

const dispatchLatency: BenchCase = {
  name: 'dispatch latency',
  async run() {
    const rows: BenchRow[] = [];
    for (const storage of ['file', 'memory'] as const) {
      const m = await measure(storage);
      // What references and trace entries cost, on the same machine in the same run: at most 10 % over plain.
      const w = await measure(storage, 'references');
      const p50 = quantile(m.emitTotal, 0.5);
      const w50 = quantile(w.emitTotal, 0.5);
      rows.push(
        { name: `${storage}: emit, rule with {{event.…}} references + a not_fired entry, p50`, value: w50, unit: 'ms' },
        { name: `${storage}: emit p50, references + not_fired ÷ plain (≤ 1.10 wanted)`, value: w50 / p50, unit: 'x' },
      );
      // Retry bookkeeping, on the same machine in the same run (≤ 10 % over plain wanted).
      const r50 = quantile((await measure(storage, 'retry')).emitTotal, 0.5);
      const f50 = quantile((await measure(storage, 'fail')).emitTotal, 0.5);
      const fr50 = quantile((await measure(storage, 'fail-retry')).emitTotal, 0.5);
      rows.push(
        {
          name: `${storage}: emit p50, rule with retry (call succeeds) ÷ plain (≤ 1.10 wanted)`,
          value: r50 / p50,
          unit: 'x',
        },
        { name: `${storage}: emit p50, failing call scheduling a retry, p50`, value: fr50, unit: 'ms' },
        {
          // What scheduling the retry adds to a failing call, against the plain p50 (≤ 10 % wanted).
          name: `${storage}: retry scheduling (failing call + retry − failing call) ÷ plain p50 (≤ 0.10 wanted)`,
          value: (fr50 - f50) / p50,
          unit: 'x',
        },
      );
      rows.push(
        { name: `${storage}: append → tool call effect, p50`, value: quantile(m.appendToEffect, 0.5), unit: 'ms' },
        { name: `${storage}: append → tool call effect, p99`, value: quantile(m.appendToEffect, 0.99), unit: 'ms' },
        { name: `${storage}: emit (append + dispatch + effect), p50`, value: quantile(m.emitTotal, 0.5), unit: 'ms' },
        { name: `${storage}: emit (append + dispatch + effect), p99`, value: quantile(m.emitTotal, 0.99), unit: 'ms' },
      );
    }
    return rows;
  },
};

export default dispatchLatency;
