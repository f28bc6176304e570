/** Anything that signs like an ethers Wallet. */
type Signer = { address: string; signMessage(message: string): Promise<string> };
import { SiweMessage } from 'siwe';
import type { TestApp } from './test-app.js';

/** Asks the daemon for a nonce and signs a SIWE message with a real ethers Wallet; `edit` tampers with the fields first. */
export async function signInMessage(
  t: TestApp,
  wallet: Signer,
  edit: (fields: Partial<SiweMessage>) => void = () => {},
): Promise<{ message: string; signature: string; nonce: string }> {
  const res = await t.post('/api/auth/wallet/nonce', { address: wallet.address });
  if (res.status !== 200) throw new Error(`nonce: ${res.status} ${res.text}`);
  const fields: Partial<SiweMessage> = {
    domain: res.body.domain,
    address: wallet.address,
    statement: 'Sign in to svc.',
    uri: res.body.uri,
    version: '1',
    chainId: res.body.chain_ids[0],
    nonce: res.body.nonce,
    issuedAt: new Date(t.clock.now()).toISOString(),
  };
  edit(fields);
  const message = new SiweMessage(fields).prepareMessage();
  return { message, signature: await wallet.signMessage(message), nonce: res.body.nonce };
}

export async function inviteCode(t: TestApp): Promise<string> {
  return (await t.post('/api/dev/invites', {}, t.operator)).body.code;
}
