import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { requireToken } from '../../session.js';
import { formatTable } from '../../table.js';
import { sessionListResponse } from '../../../shared/schemas/me.js';

export type { SessionRow } from '../../../shared/schemas/me.js';

/** `svc sessions list`: the account's live sessions, this one marked with `*`. */
export async function runSessionsList(_opts: Record<string, never>, ctx: CliContext): Promise<void> {
  const token = await requireToken(ctx);
  const { sessions } = await ctx.api().get('/api/auth/sessions', { token, schema: sessionListResponse });
  if (ctx.json) return ctx.printList(sessions);
  const rows = sessions.map((s) => [
    (s.current ? '* ' : '  ') + s.id,
    s.created_at.slice(0, 16).replace('T', ' '),
    s.last_seen_at.slice(0, 16).replace('T', ' '),
    s.method.join('+'),
    [s.ip, s.user_agent].filter(Boolean).join(' ').slice(0, 48) || '-',
  ]);
  for (const line of formatTable(['  ID', 'CREATED', 'LAST SEEN', 'METHOD', 'CLIENT'], rows)) ctx.out(line);
}

export function sessionsListCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('list').description('list your active sessions (* = this one)');
  return action(cmd, makeCtx, (ctx) => runSessionsList({}, ctx));
}
