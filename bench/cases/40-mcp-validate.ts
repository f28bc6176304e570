import type { BenchCase } from '../harness.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * Secret-key-authenticated `POST /api/mcp/validate` (format check, SHA-256, key lookup, user and
 * Company lookup, tier gate) against a bare Koa hello-world. Target: >= 0.6 of bare Koa.
 *
 * Set-up goes through public routes only: an operator invite, wallet signup, a Company and a key
 * (bench/wallet-key.ts; the bench daemon runs with --default-tier company).
 */
const mcpValidate: BenchCase = {
  name: 'POST /api/mcp/validate',
  async run(env) {
    const secretKey = await createWalletSecretKey(env, 'Bench Co');
    const { value, baseline, cpuRatio } = await env.compare(env.daemon.url + '/api/mcp/validate', {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}` },
    });
    return [{ name: 'POST /api/mcp/validate (sk_ key)', value, unit: 'req/s', baseline, cpuRatio, target: '>= 0.6' }];
  },
};
export default mcpValidate;
