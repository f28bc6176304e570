import { createHash } from 'node:crypto';
import type { TableSpec } from '../../daemon/store/engine/types.js';
import type { SeedTable } from './seed-journal.js';

/** A session-like record (~300 bytes, two secondary indexes): what a login writes. */
export interface BenchSession {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  ip: string;
  user_agent: string;
}

export const sessionSpec: TableSpec<BenchSession> = {
  name: 'bench_sessions',
  id: (s) => s.id,
  indexes: { user: (s) => s.user_id, token: (s) => s.token_hash },
};

export function benchSession(i: number, tag = 'seed'): BenchSession {
  return {
    id: `ses_${tag}_${i}`,
    user_id: `usr_${i % 50_000}`,
    token_hash: createHash('sha256').update(`${tag}:${i}`).digest('hex'),
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    expires_at: new Date(Date.UTC(2026, 1, 1) + i * 1000).toISOString(),
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) bench/1.0',
  };
}

export const sessionSeed = (count: number): SeedTable<object> => ({
  name: sessionSpec.name,
  count,
  record: (i) => benchSession(i),
  id: (r) => (r as BenchSession).id,
  spec: sessionSpec as unknown as TableSpec<object>,
});
