import { writeFileSync } from 'node:fs';
import { createMcpTestApp } from './mcp-app.js';

/**
 * Run in a child process by tests/daemon/lazy-libraries.test.ts under the module-log hook:
 * `node lazy-libraries-child.js <out.json> <login|first-use>`. Serves /healthz, a password login
 * and /api/me; with `first-use` also the first wallet, passkey and MCP requests. Writes each
 * answer's status (and the login's code) to out.json.
 */
const [out, mode] = process.argv.slice(2) as [string, string];
const t = await createMcpTestApp({ storage: 'file' });
const answers: Record<string, unknown> = {};
answers.healthz = (await t.get('/healthz')).status;
const login = await t.post('/api/auth/login', { email: t.owner.user.email, password: t.owner.password });
answers.login = login.status;
answers.me = (await t.get('/api/me', { authorization: `Bearer ${login.body.token}` })).status;
if (mode === 'first-use') {
  const address = '0x52908400098527886E0F7030069857D2E4169EE7'; // an EIP-55 test vector
  answers.wallet = (await t.post('/api/auth/wallet/nonce', { address })).status;
  answers.passkey = (await t.post('/api/auth/passkey/login-begin', {})).status;
  const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lazy', version: '1' } };
  answers.mcp = (await t.mcp({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })).status;
}
writeFileSync(out, JSON.stringify(answers));
process.exit(0);
