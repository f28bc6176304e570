import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import type { CliContext } from '../../context.js';
import { ApiRequestError, UsageError } from '../../errors.js';
import { ask, readAllStdin } from '../../prompt.js';
import { finishLogin, type LoginAnswer } from '../../totp-step.js';

export interface WalletOptions {
  /** Sign up with this invite code when the wallet has no account yet. */
  invite?: string;
  totpCode?: string;
}

interface NonceAnswer {
  nonce: string;
  domain: string;
  uri: string;
  version: string;
  chain_ids: number[];
  issued_at: string;
}

/**
 * `svc login --wallet`: Sign-In with Ethereum with a private key from SVC_WALLET_KEY, or stdin
 * (hidden prompt on a terminal). Never from argv: arguments show in `ps` and shell history.
 */
export async function loginWithWallet(
  ctx: CliContext,
  opts: WalletOptions,
): Promise<{ token: string; address: string; signedUp: boolean }> {
  const wallet = new Wallet(normalizeKey(await readKey(ctx)));
  const api = ctx.api();
  const sign = async () => {
    const n = await api.post<NonceAnswer>('/api/auth/wallet/nonce', { address: wallet.address }, { token: null });
    const message = new SiweMessage({
      domain: n.domain,
      address: wallet.address,
      statement: 'Sign in to svc from the command line.',
      uri: n.uri,
      version: n.version,
      chainId: n.chain_ids[0]!,
      nonce: n.nonce,
      issuedAt: n.issued_at,
    }).prepareMessage();
    return { message, signature: await wallet.signMessage(message) };
  };
  try {
    const answer = await api.post<LoginAnswer>('/api/auth/wallet/login', await sign(), { token: null });
    return { token: await finishLogin(ctx, answer, opts.totpCode), address: wallet.address, signedUp: false };
  } catch (err) {
    if (!(err instanceof ApiRequestError && err.code === 'wallet_not_registered' && opts.invite)) throw err;
  }
  const created = await api.post<{ token: string }>(
    '/api/auth/wallet/signup',
    { ...(await sign()), invite_code: opts.invite },
    { token: null },
  );
  return { token: created.token, address: wallet.address, signedUp: true };
}

async function readKey(ctx: CliContext): Promise<string> {
  if (ctx.env.SVC_WALLET_KEY) return ctx.env.SVC_WALLET_KEY;
  if (ctx.interactive) return ask(ctx, 'Wallet private key (hex, not shown): ', { secret: true });
  const piped = await readAllStdin(ctx);
  if (!piped)
    throw new UsageError('no wallet key', 'set SVC_WALLET_KEY or pipe the key on stdin (never pass it as an argument)');
  return piped;
}

function normalizeKey(raw: string): string {
  const key = raw.trim().startsWith('0x') ? raw.trim() : `0x${raw.trim()}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new UsageError('the wallet key must be 32 bytes of hex (64 hex digits, 0x optional)');
  return key;
}
