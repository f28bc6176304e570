import { hashSecretKey } from '../floor.js';
import { floorRow, type BenchCase } from '../harness.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * Secret-key-authenticated `POST /api/mcp/validate` (format check, SHA-256, key lookup, user and
 * Company lookup, tier gate). Target: the cpu ratio to the floor app (the same format check, hash,
 * one lookup and the same answer) >= 0.9; the ratio to bare Koa is printed too.
 *
 * Set-up goes through public routes only: an operator invite, wallet signup, a Company and a key
 * (bench/wallet-key.ts; the bench daemon runs with --default-tier company).
 */
const mcpValidate: BenchCase = {
  name: 'POST /api/mcp/validate',
  async run(env) {
    const secretKey = await createWalletSecretKey(env, 'Bench Co');
    const request = { method: 'POST' as const, headers: { authorization: `Bearer ${secretKey}` } };
    const validate = await env.floor.capture('/api/mcp/validate', request);
    await env.floor.mirror('/api/mcp/validate', request, { keys: { [hashSecretKey(secretKey)]: { validate } } });
    const { bareKoa, floor } = await env.compareWithFloor('/api/mcp/validate', request);
    return [{ name: 'POST /api/mcp/validate (sk_ key)', unit: 'req/s', ...bareKoa }, floorRow(floor, '>= 0.9')];
  },
};
export default mcpValidate;
