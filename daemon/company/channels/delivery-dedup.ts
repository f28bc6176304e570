import { createHash } from 'node:crypto';
import type { DeliveryStore } from '../../store/runtime-types.js';

/**
 * Remembers delivery ids (`X-Svc-Delivery`) per channel so a retried or replayed delivery is
 * acknowledged without emitting its event again. A delivery's signature is only accepted within the
 * timestamp tolerance, so an id only needs remembering for that long (the store keeps it for twice
 * the tolerance, and a bounded number of ids). The ids are in the Company's store, not in memory, so
 * a replay from the last few minutes right after a daemon restart is refused too.
 *
 * A v1 signature does not cover the delivery id, so anyone holding one captured v1 delivery could
 * resend its bytes under fresh ids. For those the signed bytes themselves (`<t>.<body>`) are
 * remembered as well, by their SHA-256, in the same store and for the same time.
 */
export interface DeliveryDedup {
  /** True the first time (channel, id) is seen within the retention; false for a duplicate. */
  firstSeen(channelKey: string, deliveryId: string, nowMs: number): Promise<boolean>;
  /** True the first time these v1-signed bytes are seen on the channel within the retention. */
  firstSeenV1Bytes(channelKey: string, timestamp: number, rawBody: Buffer, nowMs: number): Promise<boolean>;
  size(): Promise<number>;
}

export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createDeliveryDedup(store: DeliveryStore): DeliveryDedup {
  return {
    firstSeen: (channelKey, deliveryId, nowMs) => store.firstSeen(`${channelKey}\u0000${deliveryId}`, nowMs),
    firstSeenV1Bytes(channelKey, timestamp, rawBody, nowMs) {
      const digest = createHash('sha256').update(`${timestamp}.`).update(rawBody).digest('hex');
      // `=` is outside the delivery id alphabet, so a digest can never collide with an id.
      return store.firstSeen(`${channelKey}\u0000=${digest}`, nowMs);
    },
    size: () => store.size(),
  };
}
