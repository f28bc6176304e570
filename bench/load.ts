import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  duration?: number;
  connections?: number;
}

/** Drives `url` with autocannon; every answer must be 2xx, so a case never measures fast error pages. */
export async function load(
  url: string,
  defaults: { duration: number; connections: number },
  options: LoadOptions = {},
): Promise<{ rps: number; total: number }> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    duration: options.duration ?? defaults.duration,
    connections: options.connections ?? defaults.connections,
  });
  const bad = result.non2xx + result.errors;
  if (bad > 0)
    throw new Error(
      `${options.method ?? 'GET'} ${url}: ${bad} of ${result.requests.total} requests failed (non-2xx or socket errors)`,
    );
  return { rps: result.requests.average, total: result.requests.total };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where there is no /proc. */
export function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the ")" of the command name: state is field 3, utime 14, stime 15 (in clock ticks, 100 per second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
