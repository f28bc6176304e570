import type { Context } from 'koa';
import type { EventsService } from '../company-services.js';

/**
 * Answers a request that emits events at most once per `Idempotency-Key` header (CONTRACT §8: a
 * repeat within 24 hours answers what the first call answered, with `Idempotent-Replayed: true`,
 * and fires nothing). Without the header `run` simply runs. `scope` keeps one route's keys apart
 * from another's, so a key reused on a different route is never answered with the wrong body.
 */
export async function answerOnce<T>(
  ctx: Context,
  events: Pick<EventsService, 'once'>,
  scope: string,
  request: unknown,
  run: () => Promise<T>,
): Promise<T> {
  const key = ctx.get('Idempotency-Key');
  if (!key || !events.once) return run();
  const { answer, replayed } = await events.once(scope, key, request, run);
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
  return answer;
}
