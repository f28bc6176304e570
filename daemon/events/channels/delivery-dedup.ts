/**
 * Remembers delivery ids (`X-Svc-Delivery`) per channel so a retried or replayed delivery is
 * acknowledged without emitting its event again. In memory, by design: a delivery's signature is
 * only accepted within the timestamp tolerance, so an id only needs remembering for that long
 * (we keep it for twice the tolerance). Bounded: at most `maxIds` ids, oldest forgotten first.
 * The one gap — a replay of a delivery from the last few minutes right after a daemon restart — is
 * documented in docs/emitters.md; persisting ids would close it at the cost of a write per delivery.
 */
export interface DeliveryDedup {
  /** True the first time (channel, id) is seen within the retention; false for a duplicate. */
  firstSeen(channelKey: string, deliveryId: string, nowMs: number): boolean;
  size(): number;
}

export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createDeliveryDedup(options: { retentionMs?: number; maxIds?: number } = {}): DeliveryDedup {
  const retentionMs = options.retentionMs ?? 600_000;
  const maxIds = options.maxIds ?? 50_000;
  /** Insertion order is arrival order, so the oldest ids are first. */
  const seen = new Map<string, number>();
  return {
    firstSeen(channelKey, deliveryId, nowMs) {
      for (const [key, at] of seen) {
        if (at > nowMs - retentionMs && seen.size < maxIds) break;
        seen.delete(key);
      }
      const key = `${channelKey}\u0000${deliveryId}`;
      if (seen.has(key)) return false;
      seen.set(key, nowMs);
      return true;
    },
    size: () => seen.size,
  };
}
