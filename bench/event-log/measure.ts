import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** A full garbage collection, so memory deltas count what is kept rather than what is waiting to be freed. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Memory after two full collections a turn apart (freed buffers are released after the first one's sweep). */
export async function memoryNow(): Promise<{ rss: number; heap: number; external: number }> {
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

/** Runs `appender` from `concurrency` loops until `seconds` have passed; returns completed calls per second. */
export async function measureRate(
  seconds: number,
  concurrency: number,
  appender: () => Promise<unknown> | unknown,
): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      await appender();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return done / ((performance.now() - started) / 1000);
}

/** Mean microseconds per call of `fn` over `inputs`, after a warm-up pass over the first tenth. */
export function measureMicros<T>(inputs: T[], fn: (input: T) => unknown): number {
  for (const input of inputs.slice(0, Math.ceil(inputs.length / 10))) fn(input);
  const started = performance.now();
  for (const input of inputs) fn(input);
  return ((performance.now() - started) * 1000) / inputs.length;
}
