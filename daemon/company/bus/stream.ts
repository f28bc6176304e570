import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { EventFilter, EventsService } from '../company-services.js';

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events: every event after the cursor (`since_id`, or the `Last-Event-ID` a
 * reconnecting EventSource sends), then each new one as it lands, as `id:`/`event:`/`data:`
 * frames. The cursor is the `id:` of each frame, so a client that reconnects resumes exactly.
 * Without a cursor the stream starts at the end of the log (only new events).
 */
export async function streamEvents(
  ctx: Context,
  events: Required<EventsService>,
  filter: EventFilter,
  sinceId: string | undefined,
): Promise<void> {
  let cursor = sinceId ?? ctx.get('Last-Event-ID') ?? '';
  if (!cursor) cursor = (await events.lastId()) ?? '';
  const out = new PassThrough();

  const writePages = async () => {
    for (;;) {
      const page = await events.list({ ...filter, since_id: cursor || undefined, limit: 1000 });
      if (closed) return;
      for (const e of page.events) {
        out.write(`id: ${e.id}\nevent: event\ndata: ${JSON.stringify(e)}\n\n`);
        cursor = e.id;
      }
      if (!page.next_since_id) return;
    }
  };
  // One flush at a time, each starting at the cursor the last one left: no frame is sent twice or skipped.
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(() => (closed ? undefined : writePages())).catch(() => close());
    return flushing;
  };

  const unsubscribe = events.subscribe(() => void flush());
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref?.();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    unrelease();
    clearInterval(heartbeat);
    out.end();
  };
  // A daemon shutting down ends its streams; EventSource clients reconnect with Last-Event-ID.
  const unrelease = events.onRelease(close);
  ctx.res.on('close', close);

  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = out;
  out.write('retry: 2000\n\n');
  await flush();
}
