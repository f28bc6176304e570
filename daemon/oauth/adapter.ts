import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { OAuthRecord, OAuthStore } from '../store/oauth-types.js';

/** What the protocol library stores through its adapter: a JSON payload per (kind, id). */
type Payload = Record<string, unknown>;

export interface AdapterOptions {
  store: OAuthStore;
  clock: Clock;
  /** A registered client unused this long is forgotten (seconds). */
  clientIdleSeconds: number;
  /** The error a second redemption of a code or refresh token answers with (the library's invalid_grant). */
  alreadyUsed(kind: string): Error;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** How stale a client's "last used" may get before a use writes it again: one write an hour at most. */
const TOUCH_EVERY_MS = 3600_000;

/**
 * The storage adapter the protocol library asks for, over svc's OAuth store, so the same records
 * live in the data folder or in PostgreSQL. Expiry follows svc's clock (a test's fake clock can
 * expire a code). Ids are stored hashed; a token's payload leaves its own value (`jti`) out and
 * gets it back on read.
 */
export function createAdapterClass(options: AdapterOptions) {
  const { store, clock } = options;
  const now = () => new Date(clock.now()).toISOString();
  const idleMs = options.clientIdleSeconds * 1000;
  return class SvcOAuthAdapter {
    constructor(readonly kind: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const { jti: _id, ...kept } = payload;
      const grantId = this.kind === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null;
      const atMs = clock.now();
      await store.put(
        {
          kind: this.kind,
          id_hash: hashOf(id),
          payload: kept,
          grant_id: grantId,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          expires_at: this.expiresAt(atMs, expiresIn),
          consumed_at: null,
        },
        new Date(atMs).toISOString(),
      );
    }

    async find(id: string): Promise<Payload | undefined> {
      const found = await store.find(this.kind, hashOf(id), now());
      if (found && this.kind === 'Client') await this.touch(found);
      return found && this.restore(found.payload, id);
    }

    /**
     * A registered client lives `clientIdleSeconds` past its last use, not forever: registration is
     * open, so clients registered once and never used again must not pile up. Every lookup (the
     * authorization, token and revocation endpoints, the consent route) is a use; the store forgets
     * the record once it lapses, a few expired rows at each write. A client stored before clients
     * expired has no expiry yet: its next use gives it one.
     */
    private async touch(found: OAuthRecord): Promise<void> {
      const atMs = clock.now();
      if (found.expires_at && Date.parse(found.expires_at) - atMs > idleMs - TOUCH_EVERY_MS) return;
      await store.put({ ...found, expires_at: new Date(atMs + idleMs).toISOString() }, new Date(atMs).toISOString());
    }

    private expiresAt(atMs: number, expiresIn: number | undefined): string | null {
      if (this.kind === 'Client') return new Date(atMs + idleMs).toISOString();
      return typeof expiresIn === 'number' ? new Date(atMs + expiresIn * 1000).toISOString() : null;
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const found = await store.findByUid(this.kind, uid, now());
      return found?.payload;
    }

    /** svc offers no device flow: there is no user code to find. */
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    /**
     * Single use, decided by the store: the library checks `consumed` on the copy it read, which
     * two requests can both read unused; the store's check-and-set lets exactly one through. The
     * loser is treated as a replay: the grant and every token it issued end.
     */
    async consume(id: string): Promise<void> {
      const first = await store.consume(this.kind, hashOf(id), now());
      if (first) return;
      const found = await store.find(this.kind, hashOf(id), now());
      const grantId = found?.grant_id;
      if (grantId) await store.removeGrant(grantId);
      throw options.alreadyUsed(this.kind);
    }

    async destroy(id: string): Promise<void> {
      await store.remove(this.kind, hashOf(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.removeGrant(grantId);
    }

    /** A client's payload names it by `client_id`; every other record's id is its `jti`. */
    private restore(payload: Payload, id: string): Payload {
      return this.kind === 'Client' ? payload : { ...payload, jti: id };
    }
  };
}
