import { accounts } from './credentials/store.js';
import type { CliContext } from './context.js';
import { AuthRequiredError } from './errors.js';

/**
 * The login the CLI holds for the current daemon URL: kept in the credential store (the OS
 * keychain, or the 0600 file it fell back to — the store says so on stderr), never in a plain file.
 * SVC_TOKEN, when set, wins over the stored one.
 */
export async function saveLogin(ctx: CliContext, token: string): Promise<void> {
  await ctx.credentials().set(accounts.token(ctx.scope), token);
}

export async function forgetLogin(ctx: CliContext): Promise<boolean> {
  return ctx.credentials().delete(accounts.token(ctx.scope));
}

export async function currentToken(ctx: CliContext): Promise<string | null> {
  return ctx.env.SVC_TOKEN ?? (await ctx.credentials().get(accounts.token(ctx.scope)));
}

export async function requireToken(ctx: CliContext): Promise<string> {
  const token = await currentToken(ctx);
  if (!token) throw new AuthRequiredError(`not logged in to ${ctx.url()}`, loginHint(ctx));
  return token;
}

/** The login command for the profile in use: a profile named for one command needs it named for the login too. */
export function loginHint(ctx: CliContext): string {
  const { name, source } = ctx.profile;
  if (source === '--profile') return `run 'svc --profile ${name} login' first`;
  if (source === 'SVC_PROFILE') return `run 'SVC_PROFILE=${name} svc login' first`;
  return "run 'svc login' first";
}
