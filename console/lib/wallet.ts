import { post } from './api.js';

/** The EIP-1193 provider a wallet extension injects as `window.ethereum`. */
interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export const walletProvider = (): Eip1193 | null => (window as unknown as { ethereum?: Eip1193 }).ethereum ?? null;

/** EIP-55 mixed-case checksum: SIWE messages name the address in this form. */
export async function checksumAddress(address: string): Promise<string> {
  const { keccak_256 } = await import('@noble/hashes/sha3');
  const hex = address.toLowerCase().replace(/^0x/, '');
  const hash = Array.from(keccak_256(new TextEncoder().encode(hex)), (b) => b.toString(16).padStart(2, '0')).join('');
  return '0x' + [...hex].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('');
}

const utf8Hex = (text: string) =>
  '0x' + Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Asks the wallet for its account, gets a nonce for it, builds the EIP-4361 message from what the
 * daemon said it must contain, and has the wallet sign it (personal_sign). The daemon checks it all.
 */
export async function signInMessage(): Promise<{ message: string; signature: string; address: string }> {
  const provider = walletProvider();
  if (!provider)
    throw new Error('No wallet in this browser: install a wallet extension (it provides window.ethereum).');
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  if (!accounts?.[0]) throw new Error('The wallet shared no account.');
  const address = await checksumAddress(accounts[0]);
  const n = await post<{
    nonce: string;
    domain: string;
    uri: string;
    version: string;
    chain_ids: number[];
    issued_at: string;
  }>('/api/auth/wallet/nonce', { address }, { auth: 'none' });
  const message = [
    `${n.domain} wants you to sign in with your Ethereum account:`,
    address,
    '',
    'Sign in to svc.',
    '',
    `URI: ${n.uri}`,
    `Version: ${n.version}`,
    `Chain ID: ${n.chain_ids[0] ?? 1}`,
    `Nonce: ${n.nonce}`,
    `Issued At: ${n.issued_at}`,
  ].join('\n');
  const signature = (await provider.request({
    method: 'personal_sign',
    params: [utf8Hex(message), address],
  })) as string;
  return { message, signature, address };
}
