import type { EventRow } from '../../shared/event-row.js';
import { ApiFailure, headersFor } from './api.js';

/**
 * Follows GET /api/events/stream (Server-Sent Events). EventSource cannot send the bearer token
 * (and a token in its URL is exactly what the console must not do), so this reads the stream with
 * fetch and parses the `id:`/`event:`/`data:` frames itself. Resolves when the stream ends.
 */
export async function followEvents(
  query: string,
  onEvent: (row: EventRow) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`/api/events/stream${query ? `?${query}` : ''}`, {
    headers: { ...headersFor({ company: true }), Accept: 'text/event-stream' },
    signal,
    cache: 'no-store',
  });
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    throw new ApiFailure(res.status, data.code ?? 'error', data.error ?? `HTTP ${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of frame.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      if (fields.get('event') === 'event' && fields.has('data')) onEvent(JSON.parse(fields.get('data')!) as EventRow);
    }
  }
}
