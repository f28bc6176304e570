import type { NewAuditEntry } from '../../daemon/store/audit-types.js';

/** An entry as the trail would make it; `over` sets what a case cares about. */
export function entry(over: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at: '2026-11-28T10:00:00.000Z',
    actor: { type: 'user', user_id: 'usr_a', key_id: null, client_id: null, grant_id: null },
    user_id: 'usr_a',
    company_id: null,
    action: 'account.login',
    target: null,
    outcome: 'succeeded',
    reason: null,
    request_id: 'req_1',
    client_address: '127.0.0.1',
    user_agent: 'test',
    details: {},
    ...over,
  };
}
