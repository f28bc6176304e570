import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import type { BenchEnv } from './harness.js';

/**
 * A company-tier user, their Company and a secret key, made through the daemon's public routes with
 * no e-mail signup: an operator invite, then Sign-In with Ethereum signup (POST /api/auth/wallet/signup)
 * with a fresh ethers wallet. The bench daemon runs with --default-tier company, so the key passes
 * the tier gate. (The operator surface cannot create users; wallet signup is the one public signup
 * route that needs no e-mailed code read back from the outbox.)
 */
export async function createWalletSecretKey(
  env: Pick<BenchEnv, 'call'> & { daemon: { operatorToken: string } },
  companyName: string,
): Promise<string> {
  const operator = { authorization: `Bearer ${env.daemon.operatorToken}` };
  const wallet = Wallet.createRandom();
  const invite = await expectOk(env.call('POST', '/api/dev/invites', {}, operator), 'invite');
  const nonce = await expectOk(env.call('POST', '/api/auth/wallet/nonce', { address: wallet.address }), 'wallet nonce');
  const message = new SiweMessage({
    domain: nonce.domain,
    address: wallet.address,
    statement: 'Sign in to svc.',
    uri: nonce.uri,
    version: '1',
    chainId: nonce.chain_ids[0],
    nonce: nonce.nonce,
    issuedAt: nonce.issued_at,
  }).prepareMessage();
  const signature = await wallet.signMessage(message);
  const { token } = await expectOk(
    env.call('POST', '/api/auth/wallet/signup', { message, signature, invite_code: invite.code }),
    'wallet signup',
  );
  const auth = { authorization: `Bearer ${token}` };
  const company = await expectOk(env.call('POST', '/api/companies', { name: companyName }, auth), 'company');
  const key = await expectOk(env.call('POST', '/api/keys', { root: company.id, name: 'bench' }, auth), 'key');
  return key.secret_key;
}

async function expectOk(res: Promise<{ status: number; body: any }>, step: string): Promise<any> {
  const { status, body } = await res;
  if (status >= 300) throw new Error(`set-up failed at ${step}: HTTP ${status} ${JSON.stringify(body)}`);
  return body;
}
