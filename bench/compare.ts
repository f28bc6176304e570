import { cpuSeconds, load, type LoadOptions } from './load.js';

export interface Side {
  url: string;
  pid?: number;
  /**
   * Driven with the daemon's request (method, headers, body): a baseline that does the route's
   * work needs them. Otherwise a plain GET, which is all bare Koa answers.
   */
  sameRequest?: boolean;
  /** A request of this side's own (its own key, say), used instead of the shared one. */
  request?: LoadOptions;
}

export interface Comparison {
  /** The daemon's req/s and the baseline's, from the slice pair with the median ratio. */
  value: number;
  baseline: number;
  /** Baseline CPU per request ÷ the daemon's (median over the pairs); absent without /proc. */
  cpuRatio?: number;
}

/**
 * The daemon against one or more baselines in alternating slices (each baseline, then the daemon,
 * round after round), one Comparison per baseline, in their order. Throughput is what the targets
 * were first about, but on a machine busy with other work it swings with that work; alternating
 * slices let every side share the same disturbance, and the median pair drops the worst slices.
 * The CPU time each server spent per request is measured too: it barely depends on other
 * processes, so it is the steadier figure when the machine is busy.
 */
export async function compare(
  baselines: Side[],
  daemon: Side,
  defaults: { duration: number; connections: number },
  options: LoadOptions & { rounds?: number } = {},
): Promise<Comparison[]> {
  const rounds = options.rounds ?? 3;
  const slice = Math.max(1, (options.duration ?? defaults.duration) / rounds);
  const request = { ...options, duration: slice };
  const plainGet = { duration: slice, connections: options.connections };
  const pairs = baselines.map(() => [] as Pair[]);
  for (let i = 0; i < rounds; i++) {
    const measured = [];
    const own = (side: Side) => (side.request ? { ...side.request, duration: slice } : undefined);
    for (const side of baselines)
      measured.push(await measureSide(side, defaults, own(side) ?? (side.sameRequest ? request : plainGet)));
    const d = await measureSide(daemon, defaults, own(daemon) ?? request);
    for (const [j, b] of measured.entries())
      pairs[j]!.push({ value: d.rps, baseline: b.rps, cpuRatio: cpuRatioOf(b, d) });
  }
  return pairs.map(medianOf);
}

interface Pair {
  value: number;
  baseline: number;
  cpuRatio: number | null;
}

function medianOf(pairs: Pair[]): Comparison {
  const middle = Math.floor(pairs.length / 2);
  const { value, baseline } = [...pairs].sort((a, b) => a.value / a.baseline - b.value / b.baseline)[middle]!;
  const cpuRatios = pairs.map((p) => p.cpuRatio).filter((r) => r !== null);
  cpuRatios.sort((a, b) => a - b);
  return cpuRatios.length === pairs.length ? { value, baseline, cpuRatio: cpuRatios[middle]! } : { value, baseline };
}

const cpuRatioOf = (b: Measured, d: Measured) =>
  b.cpuPerRequest && d.cpuPerRequest ? b.cpuPerRequest / d.cpuPerRequest : null;

type Measured = Awaited<ReturnType<typeof measureSide>>;

async function measureSide(side: Side, defaults: { duration: number; connections: number }, options: LoadOptions) {
  const before = cpuSeconds(side.pid);
  const { rps, total } = await load(side.url, defaults, options);
  const after = cpuSeconds(side.pid);
  const cpuPerRequest =
    before !== null && after !== null && total > 0 && after > before ? (after - before) / total : null;
  return { rps, cpuPerRequest };
}
