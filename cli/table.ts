/** Plain aligned columns for lists on a terminal or in a pipe (no colours, so it greps cleanly). */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** `2026-01-15T12:00:00.000Z` → `2026-01-15 12:00`; null → `never`. */
export const shortTime = (iso: string | null): string => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');
