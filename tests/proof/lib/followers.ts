import { call } from './client.js';

/** What a follower saw: the event ids, in order of arrival. */
export interface Follower {
  seen: Set<string>;
  errors: string[];
  stop(): Promise<void>;
}

/** A long-poll follower: `GET /api/events?since_id=…&wait=5` in a loop, resuming from the cursor it is given. */
export function followByLongPoll(
  url: string,
  headers: Record<string, string>,
  type: string,
  sinceId: string,
): Follower {
  const seen = new Set<string>();
  const errors: string[] = [];
  let stopped = false;
  const loop = (async () => {
    let cursor = sinceId;
    while (!stopped) {
      const page = await call(
        url,
        `/api/events?event_type=${encodeURIComponent(type)}&since_id=${cursor}&wait=5&limit=1000`,
        { headers, timeoutMs: 20_000 },
      );
      if (page.status !== 200) {
        errors.push(`long-poll → ${page.status} ${page.text.slice(0, 120)}`);
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      for (const e of page.body.events) seen.add(e.id);
      cursor = page.body.next_since_id ?? cursor;
    }
  })();
  return { seen, errors, stop: async () => void ((stopped = true), await loop) };
}

/** An SSE follower: one `GET /api/events/stream` connection, frames parsed as they arrive. */
export function followBySse(url: string, headers: Record<string, string>, type: string, sinceId: string): Follower {
  const seen = new Set<string>();
  const errors: string[] = [];
  const abort = new AbortController();
  const loop = (async () => {
    try {
      const res = await fetch(`${url}/api/events/stream?event_type=${encodeURIComponent(type)}&since_id=${sinceId}`, {
        headers,
        signal: abort.signal,
      });
      if (res.status !== 200 || !res.body) return void errors.push(`stream → ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\S+)/m.exec(frame)?.[1];
          if (id) seen.add(id);
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) errors.push(`stream failed: ${(err as Error).message}`);
    }
  })();
  return { seen, errors, stop: async () => void (abort.abort(), await loop) };
}
