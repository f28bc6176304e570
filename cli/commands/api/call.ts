import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey, resolveCompanyId } from '../../company.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, UsageError } from '../../errors.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface ApiCallOptions {
  method: string;
  path: string;
  data?: string;
  company?: string;
}

/**
 * `svc api <METHOD> <path> [--data JSON]`: one raw call with the profile's credentials (SVC_TOKEN,
 * else the stored login) and the current Company as X-Company when one is set; prints the JSON
 * answer on stdout. An error answer is printed too, and the exit code is then non-zero (like `gh api`).
 */
export async function runApiCall(opts: ApiCallOptions, ctx: CliContext): Promise<void> {
  const method = opts.method.toUpperCase();
  if (!METHODS.includes(method))
    throw new UsageError(`unknown method ${opts.method}`, `use one of ${METHODS.join(', ')}`);
  if (!opts.path.startsWith('/')) throw new UsageError(`the path must start with / (e.g. /api/me), not '${opts.path}'`);
  let body: unknown;
  if (opts.data !== undefined) {
    try {
      body = JSON.parse(opts.data);
    } catch (err) {
      throw new UsageError(`--data is not JSON: ${(err as Error).message}`, `e.g. --data '{"name":"acme"}'`);
    }
  }
  const companyId = opts.company
    ? await resolveCompanyId(ctx, opts.company)
    : ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope))?.id;
  const headers = companyId ? { 'X-Company': companyId } : undefined;
  const res = await ctx.api().raw(method, opts.path, { body, headers });
  if (res.body !== undefined) {
    if (typeof res.body === 'string') ctx.out(res.body);
    else ctx.printJson(res.body);
  }
  if (res.status >= 400) {
    const err = (res.body && typeof res.body === 'object' ? res.body : {}) as { error?: string; code?: string };
    throw new ApiRequestError(
      res.status,
      err.code ?? `http_${res.status}`,
      `${method} ${opts.path}: HTTP ${res.status}${err.error ? ` (${err.error})` : ''}`,
      res.body,
    );
  }
}

export function apiCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('api')
    .description('call any API route with your stored credentials and print the JSON (like gh api)')
    .argument('<method>', METHODS.join(' | '))
    .argument('<path>', 'the route, e.g. /api/me')
    .option('--data <json>', 'a JSON request body')
    .option('--company <company>', 'send this Company (name or id) as X-Company instead of the current one');
  return action(cmd, makeCtx, (ctx, flags, method: string, path: string) =>
    runApiCall({ method, path, data: flags.data, company: flags.company }, ctx),
  );
}
