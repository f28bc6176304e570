/**
 * Durations as people type them for keys (`svc keys create --expires 30d`, `--overlap 24h`,
 * `--max-key-lifetime 90d`): a whole number with a unit s, m, h, d or w, or plain seconds.
 */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Seconds, or null when the text is not such a duration. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,9})([smhdw]?)$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

/** Seconds as the largest unit that divides them (`2592000` → `30d`), for messages. */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    const size = UNIT_SECONDS[unit]!;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
