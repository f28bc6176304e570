/** Lengths of time as people type them (`2h`, `90m`, `1d12h`, `30s`, `1w`), for `svc dev clock` and scenarios. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const PART = /(\d+)(ms|s|m|h|d|w)/g;

/** Milliseconds, or null when `text` is not one or more `<number><unit>` parts. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (!/^(\d+(ms|s|m|h|d|w))+$/.test(t)) return null;
  let ms = 0;
  for (const [, n, unit] of t.matchAll(PART)) ms += Number(n) * UNIT_MS[unit!]!;
  return Number.isSafeInteger(ms) ? ms : null;
}

/** `+1d 1h 30m` (at most three parts, seconds only below a minute); `+0` for none. */
export function formatOffset(ms: number): string {
  if (ms <= 0) return '+0';
  const parts: string[] = [];
  let left = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    const n = Math.floor(left / size);
    if (n) parts.push(`${n}${unit}`);
    left -= n * size;
  }
  if (!parts.length) parts.push(`${Math.round(left / 1000)}s`);
  return `+${parts.slice(0, 3).join(' ')}`;
}
