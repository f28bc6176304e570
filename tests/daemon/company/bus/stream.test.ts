import { createServer } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

/** Reads SSE frames from a real socket until `count` event frames arrived (or the stream ends). */
async function readFrames(body: ReadableStream<Uint8Array>, count: number, onFirst?: () => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const frames: { id: string; data: any }[] = [];
  let nudged = false;
  while (frames.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      const id = /^id: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (id && data) frames.push({ id, data: JSON.parse(data) });
    }
    if (!nudged && frames.length >= 1) {
      nudged = true;
      onFirst?.();
    }
  }
  await reader.cancel();
  return frames;
}

test('SSE: history after the cursor, then live events, each framed with its id', async () => {
  const t = await createRuntimeTestApp();
  const first = await t.services.events.emit({ type: 'session:custom', content: { n: 0 } });
  await t.services.events.emit({ type: 'session:custom', content: { n: 1 } });
  await t.services.events.emit({ type: 'session:other', content: { n: 99 } });
  const server = createServer(t.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const res = await fetch(`${url}/api/events/stream?since_id=${first.event.id}&event_type=session:custom`);
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const frames = await readFrames(
      res.body!,
      2,
      () => void t.services.events.emit({ type: 'session:custom', content: { n: 2 } }),
    );
    assert.equal(
      frames.map((f) => f.data.content.n),
      [1, 2],
    );
    assert.is(frames[0]!.id, frames[0]!.data.id);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('SSE resumes from Last-Event-ID, and a shutdown ends the stream', async () => {
  const t = await createRuntimeTestApp();
  const a = await t.services.events.emit({ type: 'session:custom', content: { n: 0 } });
  await t.services.events.emit({ type: 'session:custom', content: { n: 1 } });
  const server = createServer(t.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const res = await fetch(`${url}/api/events/stream`, { headers: { 'Last-Event-ID': a.event.id } });
    const frames = await readFrames(res.body!, 5, () => t.services.events.releaseWaiters());
    assert.equal(
      frames.map((f) => f.data.content.n),
      [1],
      'the stream ended after the history',
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test.run();
