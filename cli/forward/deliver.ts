import { signDelivery } from '../../shared/webhook-signature.js';
import type { EventRow } from '../../shared/runtime-records.js';

export interface DeliveryOptions {
  to: string;
  secret: string;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  signal?: AbortSignal;
  /** Told of each failed attempt that will be retried (status or error, and the wait). */
  retrying?(attempt: number, outcome: string, delayMs: number): void;
}

export interface DeliveryResult {
  ok: boolean;
  /** The last answer's status, or null when none came (a refused connection). */
  status: number | null;
  attempts: number;
  ms: number;
  error?: string;
}

const MAX_BACKOFF_MS = 30_000;

/** Worth another attempt: no answer, a server error, a time-out or a rate limit. Another 4xx is the app's final word. */
const retryable = (status: number | null) => status === null || status >= 500 || status === 408 || status === 429;

/**
 * POSTs one event to the app, signed as the daemon's inbound webhooks are (X-Svc-Signature v2 over
 * the delivery id and the exact body; X-Svc-Delivery is the event id, so a receiver dedups a
 * retried or resent event), retrying with exponential backoff while the answer is retryable.
 */
export async function deliverEvent(event: EventRow, opts: DeliveryOptions): Promise<DeliveryResult> {
  const body = JSON.stringify(event);
  const started = opts.now();
  let status: number | null = null;
  let error: string | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(opts.to, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-events-forward',
          'x-svc-delivery': event.id,
          'x-svc-event-type': event.type,
          'x-svc-signature': signDelivery({
            secret: opts.secret,
            deliveryId: event.id,
            rawBody: body,
            nowMs: opts.now(),
          }),
        },
        body,
        signal: opts.signal,
      });
      status = res.status;
      error = undefined;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      status = null;
      error = (err as Error).cause ? String(((err as Error).cause as Error).message ?? err) : (err as Error).message;
    }
    const ok = status !== null && status >= 200 && status < 300;
    if (ok || !retryable(status) || attempt >= opts.maxAttempts || opts.signal?.aborted)
      return { ok, status, attempts: attempt, ms: opts.now() - started, ...(error ? { error } : {}) };
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempt - 1));
    opts.retrying?.(attempt, status === null ? (error ?? 'no answer') : `HTTP ${status}`, delay);
    await opts.sleep(delay, opts.signal);
  }
}

/** `--type session:*`: `*` stands for any text; without one, the type itself. */
export function typeMatcher(pattern: string | undefined): (type: string) => boolean {
  if (!pattern) return () => true;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (type) => re.test(type);
}
