import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { describeSource, findCredentialSources, type Source } from '../../credential-sources.js';
import { CliError } from '../../errors.js';
import { readProfiles } from '../../profiles.js';
import { readTokenClaims } from '../../token-claims.js';

export interface AuthStatusRow {
  profile: string;
  current: boolean;
  url: string;
  user: string | null;
  token_expires_at: string | null;
  token_expired: boolean;
  token: Source;
  account_key: Source;
  secret_key: Source;
}

/**
 * `svc auth status`: every profile, its URL, who is logged in, until when, and where each
 * credential comes from. Read from the stored tokens without calling any server (like `gh auth
 * status`, it works with every daemon down); `svc whoami` asks the daemon. Exit 4 when the
 * profile in use has no login.
 */
export async function runAuthStatus(_opts: object, ctx: CliContext, makeCtx: ContextFactory): Promise<void> {
  const rows: AuthStatusRow[] = [];
  for (const name of Object.keys(readProfiles(ctx.config()))) {
    const p = name === ctx.profile.name ? ctx : makeCtx({ profile: name });
    const found = await findCredentialSources(p);
    const claims = readTokenClaims(found.token.value) as { email?: string; sub?: string; exp?: number };
    const expires = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
    rows.push({
      profile: name,
      current: name === ctx.profile.name,
      url: p.url(),
      user: found.token.value ? (claims.email ?? claims.sub ?? '(unknown)') : null,
      token_expires_at: expires?.toISOString() ?? null,
      token_expired: expires ? expires.getTime() <= ctx.now() : false,
      token: found.token.source,
      account_key: found.account_key,
      secret_key: found.secret_key,
    });
  }
  const current = rows.find((r) => r.current);
  if (ctx.json) ctx.printList(rows);
  else
    rows.forEach((r) => {
      printRow(ctx, r);
    });
  if (!current?.user || current.token_expired) {
    throw new CliError(
      `profile ${ctx.profile.name} is ${current?.user ? 'logged in with an expired token' : 'not logged in'}`,
      4,
      "run 'svc login'",
    );
  }
}

function printRow(ctx: CliContext, r: AuthStatusRow): void {
  ctx.out(`${r.current ? '* ' : '  '}${r.profile}  ${r.url}`);
  ctx.out(`    user:        ${r.user ?? 'not logged in'}`);
  if (r.token_expires_at) ctx.out(`    expires:     ${r.token_expires_at}${r.token_expired ? ' (expired)' : ''}`);
  ctx.out(`    token:       ${describeSource(r.token)}`);
  ctx.out(`    account key: ${describeSource(r.account_key)}`);
  ctx.out(`    secret key:  ${describeSource(r.secret_key)}`);
}

export function authStatusCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('status').description(
    'every profile: URL, user, token expiry, and where each credential comes from',
  );
  return action(cmd, makeCtx, (ctx) => runAuthStatus({}, ctx, makeCtx));
}
