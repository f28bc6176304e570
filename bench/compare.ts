import { cpuSeconds, load, type LoadOptions } from './load.js';

export interface Side {
  url: string;
  pid?: number;
}

export interface Comparison {
  /** The daemon's req/s and the baseline's, from the slice pair with the median ratio. */
  value: number;
  baseline: number;
  /** Baseline CPU per request ÷ the daemon's (median over the pairs); absent without /proc. */
  cpuRatio?: number;
}

/**
 * The daemon against the baseline in alternating slices (baseline, daemon, baseline, …).
 * Throughput is what the targets are about, but on a machine busy with other work it swings with
 * that work; alternating slices let both sides share the same disturbance, and the median pair
 * drops the worst slices. The CPU time each server spent per request is measured too: it barely
 * depends on other processes, so it is the steadier figure when the machine is busy.
 */
export async function compare(
  baseline: Side,
  daemon: Side,
  defaults: { duration: number; connections: number },
  options: LoadOptions & { rounds?: number } = {},
): Promise<Comparison> {
  const rounds = options.rounds ?? 3;
  const slice = Math.max(1, (options.duration ?? defaults.duration) / rounds);
  const pairs: Array<{ value: number; baseline: number }> = [];
  const cpuRatios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = await measureSide(baseline, defaults, { duration: slice, connections: options.connections });
    const d = await measureSide(daemon, defaults, { ...options, duration: slice });
    pairs.push({ value: d.rps, baseline: b.rps });
    if (b.cpuPerRequest && d.cpuPerRequest) cpuRatios.push(b.cpuPerRequest / d.cpuPerRequest);
  }
  pairs.sort((a, b) => a.value / a.baseline - b.value / b.baseline);
  const median = pairs[Math.floor(pairs.length / 2)]!;
  cpuRatios.sort((a, b) => a - b);
  return cpuRatios.length === rounds ? { ...median, cpuRatio: cpuRatios[Math.floor(rounds / 2)]! } : median;
}

async function measureSide(side: Side, defaults: { duration: number; connections: number }, options: LoadOptions) {
  const before = cpuSeconds(side.pid);
  const { rps, total } = await load(side.url, defaults, options);
  const after = cpuSeconds(side.pid);
  const cpuPerRequest =
    before !== null && after !== null && total > 0 && after > before ? (after - before) / total : null;
  return { rps, cpuPerRequest };
}
