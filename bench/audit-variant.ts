/**
 * The daemon with or without its audit trail, for the bench's "what does recording cost" row
 * (bench/cases/83-mcp-audit-cost.ts): `node audit-variant.js <data dir> on|off`. Both variants run
 * this same entry (the same modules, the same start), so the only difference between them is the
 * trail. Not part of the package: a user's daemon always records.
 */
import { startDaemon } from '../daemon/main.js';

const [data, audit] = process.argv.slice(2);
if (!data || (audit !== 'on' && audit !== 'off')) {
  process.stderr.write('usage: audit-variant.js <data dir> on|off\n');
  process.exit(2);
}
const daemon = await startDaemon(
  { port: 0, data, defaultTier: 'company' },
  process.env,
  audit === 'off' ? { withoutAuditTrail: true } : {},
);
process.stdout.write(`listening on ${daemon.url}\n`);
process.once('SIGTERM', () => void daemon.stop().then(() => process.exit(0)));
