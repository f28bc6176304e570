/**
 * The one record device pairing keeps: a pending `svc login --web`. Pairings live
 * ten minutes, so the store is in memory: a daemon restart ends the pending ones, and the CLI
 * says so and asks to run the command again. A shared (PostgreSQL) backend would implement this
 * same small interface.
 */
export type PairingStatus = 'pending' | 'approved' | 'denied' | 'collected';

export interface PairingRecord {
  id: string;
  /** SHA-256 of the CLI's device code (its polling secret) and of the short user code. */
  device_hash: string;
  code_hash: string;
  /** What the CLI said it is, and where it called from: shown on the approval page. */
  client: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  expires_at: string;
  status: PairingStatus;
  /** Set by the approval: whose session the CLI gets, and how the approving session logged in. */
  user_id: string | null;
  approved_by_session: string | null;
  approved_method: string[] | null;
  /**
   * The approver's `password_changed_at` as the approval saw it. A password change keeps the
   * changer's own session but ends every other, the pairing's session-to-be among them: when the
   * value differs at collection, the approval is void (approval-standing.ts).
   */
  approver_password_changed_at: string | null;
}

export interface PairingStore {
  create(record: PairingRecord): Promise<void>;
  findByDevice(deviceHash: string): Promise<PairingRecord | undefined>;
  findByCode(codeHash: string): Promise<PairingRecord | undefined>;
  /**
   * Check-and-set in one step: applies `patch` only when the record is still `from` and not
   * expired at `nowIso`; returns the updated record, else null. This is what makes approval and
   * collection single use even under racing requests.
   */
  transition(
    id: string,
    from: PairingStatus,
    patch: Partial<PairingRecord>,
    nowIso: string,
  ): Promise<PairingRecord | null>;
}

export function createMemoryPairingStore(): PairingStore {
  const byId = new Map<string, PairingRecord>();
  const sweep = (nowIso: string) => {
    for (const [id, r] of byId) if (r.expires_at <= nowIso) byId.delete(id);
  };
  const find = (pred: (r: PairingRecord) => boolean) => {
    for (const r of byId.values()) if (pred(r)) return { ...r };
    return undefined;
  };
  return {
    async create(record) {
      sweep(record.created_at);
      byId.set(record.id, { ...record });
    },
    async findByDevice(hash) {
      return find((r) => r.device_hash === hash);
    },
    async findByCode(hash) {
      return find((r) => r.code_hash === hash);
    },
    async transition(id, from, patch, nowIso) {
      const r = byId.get(id);
      if (!r || r.status !== from || r.expires_at <= nowIso) return null;
      Object.assign(r, patch);
      return { ...r };
    },
  };
}
