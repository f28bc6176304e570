import type { Command, OptionValues } from '../../command-spec.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { companyHeaders } from '../../company.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';

/** The flags every `svc events` command shares. */
export const withCompany = (cmd: Command) =>
  cmd.option('--company <name or id>', "the Company (default: the one saved with 'svc companies use')");

/** Calls to the Company's runtime: the X-Company header is resolved once per command. */
export async function runtimeApi(ctx: CliContext, company?: string) {
  const headers = await companyHeaders(ctx, company);
  const api = ctx.api();
  return {
    get: <T>(path: string, query?: Record<string, string | number | boolean | undefined>, signal?: AbortSignal) =>
      api.get<T>(path, { query, headers, signal }),
    post: <T>(path: string, body?: unknown, extra?: Record<string, string>) =>
      api.post<T>(path, body, { headers: { ...headers, ...extra } }),
    put: <T>(path: string, body?: unknown) => api.put<T>(path, body, { headers }),
    delete: <T>(path: string) => api.delete<T>(path, { headers }),
  };
}
export type RuntimeApi = Awaited<ReturnType<typeof runtimeApi>>;

/** Parses a JSON flag value, or a usage error naming the flag. */
export function parseJsonFlag(flag: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new UsageError(
      `${flag} is not valid JSON: ${(err as Error).message}`,
      `quote it for the shell, e.g. ${flag} '{"title":"Triage"}'`,
    );
  }
}

export const collect = (value: string, previous: string[]) => [...previous, value];

/** One readable line per event: time, type, scope, content. */
export function formatEvent(ctx: CliContext, e: EventRow): string {
  const dim = (s: string) => (ctx.color ? `\x1b[2m${s}\x1b[22m` : s);
  const bold = (s: string) => (ctx.color ? `\x1b[1m${s}\x1b[22m` : s);
  const scope = [
    e.agent_id && `agent=${e.agent_id}`,
    e.session_id && `session=${e.session_id}`,
    e.quest_id && `quest=${e.quest_id}`,
  ]
    .filter(Boolean)
    .join(' ');
  const content = e.content === null || e.content === undefined ? '' : JSON.stringify(e.content);
  return [dim(e.created_at), bold(e.type), scope, dim(e.id), content].filter(Boolean).join('  ');
}

/** Filter flags → the query of GET /api/events. */
/** The filters of `--type --agent --session --quest --since --since-id`, shared by list, tail and the follower. */
export interface EventFilterFlags {
  type?: string;
  agent?: string;
  session?: string;
  quest?: string;
  /** ISO time to start from. */
  since?: string;
  /** Only events after this id. */
  sinceId?: string;
}

export function filterQuery(flags: OptionValues) {
  return { event_type: flags.type, agent_id: flags.agent, session_id: flags.session, quest_id: flags.quest };
}

export const withFilters = (cmd: Command) =>
  cmd
    .option('--type <pattern>', 'only this event type, e.g. session:start')
    .option('--agent <id>', 'only events about this agent')
    .option('--session <id>', 'only events about this session')
    .option('--quest <id>', 'only events about this quest');
