import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startAuditRetention } from '../../../daemon/audit/retention.js';
import { createTestApp } from '../../helpers/test-app.js';
import { entry } from '../../helpers/audit.js';

test('entries past the retention are swept with a checkpoint, and the chain verifies after it', async () => {
  const t = await createTestApp({ config: { auditRetentionDays: 30 } });
  try {
    const audit = t.deps.stores.audit;
    const now = t.clock.now();
    const old = new Date(now - 31 * 86_400_000).toISOString();
    for (let i = 0; i < 3; i++) await audit.append(entry({ at: old, company_id: 'cmp_1' }));
    await audit.append(entry({ at: new Date(now).toISOString(), company_id: 'cmp_1' }));
    const retention = startAuditRetention(t.deps);
    await retention.sweep();
    retention.stop();
    const left = (await audit.query({ viewer: 'all', limit: 100 })).entries;
    assert.equal(
      left.map((e) => e.action),
      ['audit.retention', 'account.login'],
    );
    assert.equal(left[0]!.details.removed, 3);
    assert.equal(left[0]!.details.through_seq, 3);
    assert.ok((await audit.verify()).ok);
  } finally {
    await t.close();
  }
});

test('SVC_AUDIT_RETENTION_DAYS=0 keeps every entry', async () => {
  const t = await createTestApp({ config: { auditRetentionDays: 0 } });
  try {
    await t.deps.stores.audit.append(entry({ at: '2000-01-01T00:00:00.000Z' }));
    const retention = startAuditRetention(t.deps);
    await retention.sweep();
    assert.is((await t.deps.stores.audit.query({ viewer: 'all', limit: 10 })).entries.length, 1);
  } finally {
    await t.close();
  }
});

test.run();
