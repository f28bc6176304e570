import type { Command, OptionValues } from '../../command-spec.js';
import type { ApiClient } from '../../api-client.js';
import { resolveCompanyId } from '../../company.js';
import type { CliContext } from '../../context.js';
import { operatorApi } from '../../operator.js';
import type { AuditEntryView, AuditPageView } from '../../../shared/audit-view.js';

export interface AuditFilterFlags {
  company?: string;
  action?: string;
  actor?: string;
  key?: string;
  outcome?: string;
  since?: string;
  until?: string;
  /** The operator's view of every entry of a local daemon (its data folder's operator token). */
  all?: boolean;
  data?: string;
}

export const withAuditFilters = (cmd: Command) =>
  cmd
    .option('--company <name or id>', 'only this Company (default: you and every Company you own)')
    .option('--action <name>', 'only this action, or a family of them (account.login, key, mcp.tools_call)')
    .option('--actor <id>', 'only what this user, key or OAuth client did')
    .option('--key <id>', 'only what this secret key did')
    .option('--outcome <outcome>', 'succeeded or refused')
    .option('--since <time>', 'only entries at or after this ISO time')
    .option('--until <time>', 'only entries before this ISO time')
    .option('--all', "the operator's view: every entry of a local daemon (needs its data folder)")
    .option('--data <dir>', 'with --all: the data folder of the local daemon');

export const filtersOf = (flags: OptionValues): AuditFilterFlags => ({
  company: flags.company,
  action: flags.action,
  actor: flags.actor,
  key: flags.key,
  outcome: flags.outcome,
  since: flags.since,
  until: flags.until,
  all: Boolean(flags.all),
  data: flags.data,
});

/** The route and headers to read from: the operator's view, or the caller's own (narrowed to a Company when named). */
export async function auditSource(ctx: CliContext, f: AuditFilterFlags) {
  const api: ApiClient = f.all ? operatorApi(ctx, f.data) : ctx.api();
  // The operator has no Companies of their own to look a name up in: --all takes the id as given.
  const company = f.company && !f.all ? await resolveCompanyId(ctx, f.company) : f.company;
  const headers: Record<string, string> = company ? { 'X-Company': company } : {};
  const path = f.all ? '/api/dev/audit' : '/api/audit';
  const query = { action: f.action, actor: f.actor, key: f.key, outcome: f.outcome, since: f.since, until: f.until };
  return {
    page: (extra: Record<string, string | number | undefined>, signal?: AbortSignal) =>
      api.get<AuditPageView>(path, { query: { ...query, ...extra }, headers, signal }),
  };
}

/** One readable line per entry: time, outcome, action, who, target, reason. */
export function formatEntry(ctx: CliContext, e: AuditEntryView): string {
  const dim = (s: string) => (ctx.color ? `\x1b[2m${s}\x1b[22m` : s);
  const mark = (s: string) => (ctx.color ? `\x1b[${e.outcome === 'refused' ? 31 : 32}m${s}\x1b[39m` : s);
  const who = e.actor.key_id ?? e.actor.client_id ?? e.actor.user_id ?? e.actor.type;
  return [
    dim(e.at),
    mark(e.outcome.padEnd(9)),
    e.action,
    who,
    e.target ?? '',
    e.reason ? `(${e.reason})` : '',
    dim(e.id),
  ]
    .filter(Boolean)
    .join('  ');
}
