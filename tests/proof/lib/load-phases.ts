import { percentile } from './daemon.js';

/**
 * The load's two phases, measured in one run: the run is cut into an even number of windows; the
 * login clients start logins only in some of them, in the order off, on, on, off, off, on, … and
 * hash-burner.ts hashes in the others. So appends with and without logins are counted side by side,
 * and a machine that gets busier or quieter during the run (other builds on the same cores) weighs
 * on both alike. A moment counts as "with logins" while a login is in flight and no stand-in hash
 * is, as "without" while a stand-in hash is and no login is; the first second of the run (the
 * daemon's code warming up) and the hand-overs between the two count as neither.
 */
export interface Schedule {
  start: number;
  windowMs: number;
  windows: number;
}

export interface Interval {
  from: number;
  to: number;
}

/** Appends per second with logins running must stay at least this share of the rate without them. */
export const MIN_APPEND_RATIO = 0.5;
/** A route's p99 while logins run may be this many times its p99 without them, plus the slack below. */
export const P99_FACTOR = 4;
export const P99_SLACK_MS = 250;
/** Whatever the phase, no p99 above this (logins aside): a request this slow is stuck, not loaded. */
export const P99_CEILING_MS = 10_000;
/**
 * A login waits its turn for a hashing thread: with L login clients on a daemon's T threads, for
 * up to ⌈L/T⌉ hashes. Its p99 may be this many times that many hashes, timed by the stand-in, plus
 * a second for the rest of a login (its session's write, the round trip), which a cheap hash leaves.
 */
export const LOGIN_P99_HASHES_FACTOR = 3;
export const LOGIN_P99_SLACK_MS = 1000;
const WARM_UP_MS = 1000;

export function makeSchedule(seconds: number, start: number): Schedule {
  const windows = Math.max(2, 2 * Math.round(seconds / 20));
  return { start, windowMs: (seconds * 1000) / windows, windows };
}

export const loginsRunIn = (k: number) => k % 4 === 1 || k % 4 === 2;

/** Milliseconds until a window with (`logins`) or without logins, 0 while in one, null when none is left. */
export function waitForWindow(s: Schedule, t: number, logins: boolean): number | null {
  for (let k = Math.max(0, Math.floor((t - s.start) / s.windowMs)); k < s.windows; k++)
    if (loginsRunIn(k) === logins) return Math.max(0, s.start + k * s.windowMs - t);
  return null;
}

/** One answered request: which route, its status, when it was sent and answered (ms, performance.now()). */
export interface Sample extends Interval {
  route: string;
  status: number;
}

export interface RouteFigures {
  route: string;
  count: number;
  throttled: number;
  p50: number;
  p99: number;
  /** p99 of the answers (not 429s) sent and answered without logins, and with them. */
  p99Without: number | null;
  p99With: number | null;
}

export interface Starvation {
  appendsPerSecondWithout: number;
  appendsPerSecondWith: number;
  ratio: number;
  /** Seconds counted in each phase. */
  secondsWithout: number;
  secondsWith: number;
  /** The median stand-in hash, ms: what one password hash costs on this machine in this run. */
  hashMs: number;
}

type Phase = 'with' | 'without' | null;

/** The phase at each moment between `from` and `to`, as sorted segments. */
function phases(logins: Interval[], burns: Interval[], from: number, to: number) {
  const edges = [
    ...logins.flatMap((i) => [
      { t: i.from, l: 1, b: 0 },
      { t: i.to, l: -1, b: 0 },
    ]),
    ...burns.flatMap((i) => [
      { t: i.from, l: 0, b: 1 },
      { t: i.to, l: 0, b: -1 },
    ]),
  ].sort((x, y) => x.t - y.t);
  const segments: { from: number; to: number; phase: Phase }[] = [];
  let [l, b, at] = [0, 0, from];
  const close = (t: number) => {
    const end = Math.min(t, to);
    if (end > at)
      segments.push({ from: at, to: end, phase: l > 0 && b === 0 ? 'with' : b > 0 && l === 0 ? 'without' : null });
    at = Math.max(at, end);
  };
  for (const e of edges) {
    close(e.t);
    l += e.l;
    b += e.b;
  }
  close(to);
  const phaseAt = (t: number): Phase => segments.find((x) => x.from <= t && t < x.to)?.phase ?? null;
  const seconds = (p: Phase) => segments.filter((x) => x.phase === p).reduce((sum, x) => sum + x.to - x.from, 0) / 1000;
  return { phaseAt, seconds };
}

export function summarize(
  s: Schedule,
  samples: Sample[],
  burns: Interval[],
  routes: { append: string; login: string },
) {
  const end = s.start + s.windows * s.windowMs;
  const timeline = phases(
    samples.filter((x) => x.route === routes.login),
    burns,
    s.start + WARM_UP_MS,
    end,
  );
  const p99Of = (ms: number[]) => (ms.length ? percentile(ms.sort(ascending), 99) : null);
  const figures: RouteFigures[] = [...new Set(samples.map((x) => x.route))].map((route) => {
    const own = samples.filter((x) => x.route === route);
    const served = own.filter((x) => x.status !== 429);
    // A request counts in a phase when it started and ended in it: one held up by logins may end after them.
    const inPhase = (p: Phase) =>
      served.filter((x) => timeline.phaseAt(x.from) === p && timeline.phaseAt(x.to) === p).map((x) => x.to - x.from);
    const ms = served.map((x) => x.to - x.from).sort(ascending);
    return {
      route,
      count: own.length,
      throttled: own.length - served.length,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      p99Without: p99Of(inPhase('without')),
      p99With: p99Of(inPhase('with')),
    };
  });
  const [secondsWith, secondsWithout] = [timeline.seconds('with'), timeline.seconds('without')];
  const appends = (p: Phase) =>
    samples.filter((x) => x.route === routes.append && x.status === 200 && timeline.phaseAt(x.to) === p).length;
  const without = secondsWithout > 0 ? appends('without') / secondsWithout : 0;
  const withLogins = secondsWith > 0 ? appends('with') / secondsWith : 0;
  const starvation: Starvation = {
    appendsPerSecondWithout: without,
    appendsPerSecondWith: withLogins,
    ratio: without > 0 ? withLogins / without : 0,
    secondsWithout,
    secondsWith,
    hashMs: percentile(burns.map((x) => x.to - x.from).sort(ascending), 50),
  };
  return { routes: figures, starvation };
}

/**
 * The bounds of the load, as findings: empty when appends kept their share and no p99 went past its
 * bound. `hashesPerLogin`: ⌈L/T⌉ above, the most hashes a login may wait for.
 */
export function checkBounds(
  starvation: Starvation,
  routes: RouteFigures[],
  login: { route: string; hashesPerLogin: number },
): string[] {
  const found: string[] = [];
  const { appendsPerSecondWith: w, appendsPerSecondWithout: wo, ratio } = starvation;
  if (!(ratio >= MIN_APPEND_RATIO))
    found.push(
      `appends starved by logins: ${w.toFixed(1)}/s with logins against ${wo.toFixed(1)}/s without (ratio ${ratio.toFixed(2)}, bound ${MIN_APPEND_RATIO})`,
    );
  for (const r of routes) {
    if (r.route === login.route) {
      const bound = LOGIN_P99_HASHES_FACTOR * login.hashesPerLogin * starvation.hashMs + LOGIN_P99_SLACK_MS;
      if (r.p99 > bound)
        found.push(
          `${r.route}: p99 ${r.p99.toFixed(0)} ms, bound ${bound.toFixed(0)} ms (${LOGIN_P99_HASHES_FACTOR} × ${login.hashesPerLogin} hashes of ${starvation.hashMs.toFixed(0)} ms + ${LOGIN_P99_SLACK_MS} ms)`,
        );
      continue; // logins run only with themselves: they have no p99 without logins to compare with
    }
    if (r.p99 > P99_CEILING_MS) found.push(`${r.route}: p99 ${r.p99.toFixed(0)} ms, bound ${P99_CEILING_MS} ms`);
    if (r.p99With === null || r.p99Without === null) continue;
    const bound = P99_FACTOR * r.p99Without + P99_SLACK_MS;
    if (r.p99With > bound)
      found.push(
        `${r.route}: p99 ${r.p99With.toFixed(0)} ms while logins run against ${r.p99Without.toFixed(0)} ms without (bound ${bound.toFixed(0)} ms)`,
      );
  }
  return found;
}

const ascending = (a: number, b: number) => a - b;
