import type { MailMessage } from '../../../shared/wire.js';
import type { CliContext } from '../../context.js';
import { createLiveFeed } from '../../ui/live-feed.js';
import { buildMailRow } from '../../ui/mail-row.js';

export interface LiveMailOptions {
  to?: string;
  intervalMs: number;
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * `svc mail --follow` on an interactive terminal: the same Ink live view as `svc events tail`
 * (imported only here, lazily), one row per message with its code or link. q or Ctrl-C quits.
 */
export async function runLiveMail(
  fetchSince: (sinceId?: string) => Promise<MailMessage[]>,
  first: MailMessage[],
  opts: LiveMailOptions,
  ctx: CliContext,
): Promise<void> {
  const { mountLiveView } = await import('../../ui/live-view.js');
  const feed = createLiveFeed(500);
  const quit = new AbortController();
  opts.signal?.addEventListener('abort', () => quit.abort(), { once: true });
  const view = mountLiveView(
    {
      title: `svc mail · ${opts.to ?? 'every address'}`,
      details: [`${ctx.url()} · captured e-mail, oldest first · times in UTC`],
      feed,
      noun: 'message',
      color: ctx.color,
      now: ctx.now,
      onQuit: () => quit.abort(),
    },
    ctx.io,
  );
  void view.closed.then(() => quit.abort());
  feed.setStatus({ state: 'connected' });
  let mail = first;
  let last: string | undefined;
  try {
    for (;;) {
      for (const m of mail) {
        feed.push(buildMailRow(m));
        last = m.id;
      }
      await opts.sleep(opts.intervalMs, quit.signal);
      if (quit.signal.aborted) break;
      mail = await fetchSince(last);
    }
  } finally {
    view.unmount();
    await view.closed;
  }
  const n = feed.total();
  ctx.out(`${n} message${n === 1 ? '' : 's'} shown`);
}
