import { currentCompanyKey } from '../../company.js';
import type { CliContext } from '../../context.js';
import { buildEventRow } from '../../ui/event-row.js';
import { createLiveFeed } from '../../ui/live-feed.js';
import { followEvents, type FollowOptions } from './follow.js';
import type { RuntimeApi } from './shared.js';

/** Rows kept in memory for the live view: more than any screen shows, a fixed bound for a days-long tail. */
const KEEP_ROWS = 500;

/**
 * `svc events tail` on an interactive terminal: the Ink live view. Ink and React are imported here
 * with `await import()` and nowhere on the piped path, so `svc events list --json` and every
 * other non-interactive command start without loading them.
 */
export async function runLiveTail(
  api: RuntimeApi,
  opts: FollowOptions & { company?: string },
  ctx: CliContext,
): Promise<void> {
  const { mountLiveView } = await import('../../ui/live-view.js');
  const feed = createLiveFeed(KEEP_ROWS);
  const quit = new AbortController();
  opts.signal?.addEventListener('abort', () => quit.abort(), { once: true });
  const company = opts.company ?? ctx.config().get<{ name: string }>(currentCompanyKey(ctx.scope))?.name ?? '?';
  const from = opts.sinceId ? `after ${opts.sinceId}` : `since ${opts.since}`;
  const view = mountLiveView(
    {
      title: `svc events tail · ${company}`,
      details: [`${ctx.url()} · following ${from} · times in UTC`],
      feed,
      color: ctx.color,
      now: ctx.now,
      onQuit: () => quit.abort(),
    },
    ctx.io,
  );
  // If the view goes away on its own (q, Ctrl-C), the follower stops too.
  void view.closed.then(() => quit.abort());
  // stderr on the same terminal would tear the frame, so the status line reports there; a
  // redirected stderr (2>log) still gets the plain lines.
  const report = ctx.io.stderr.isTTY ? () => {} : (line: string) => ctx.err(line);
  let last: string | undefined;
  try {
    await followEvents(
      api,
      { ...opts, signal: quit.signal, quickConfirm: true },
      {
        event: (e) => {
          feed.push(buildEventRow(e));
          last = e.id;
        },
        lost: (message, delay) => {
          feed.setStatus({
            state: 'reconnecting',
            until: ctx.now() + delay,
            reason: message.slice(0, message.indexOf('; reconnecting in')),
          });
          report(`svc: ${message}`);
        },
        reconnected: () => report('svc: reconnected'),
        polled: () => feed.status().state !== 'connected' && feed.setStatus({ state: 'connected' }),
      },
    );
  } finally {
    view.unmount();
    await view.closed;
  }
  const n = feed.total();
  ctx.out(`${n} event${n === 1 ? '' : 's'} shown${last ? `; resume with: svc events tail --since-id ${last}` : ''}`);
}
