import { armedNote } from './create.js';
import { Command } from '../../command-spec.js';
import type { ConfiguredEvent } from '../../../shared/runtime-records.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from './shared.js';

export type ToggleVerb = 'enable' | 'disable' | 'delete';

/** `svc events enable|disable|delete <id>`: one configured event. */
export async function runToggle(
  verb: ToggleVerb,
  id: string,
  opts: { company?: string },
  ctx: CliContext,
): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const path = `/api/events/${encodeURIComponent(id)}`;
  if (verb === 'delete') {
    const res = await api.delete<{ ok: true; id: string }>(path);
    if (ctx.json) return ctx.printJson(res);
    return ctx.out(`deleted ${id}`);
  }
  const { event } = await api.post<{ ok: true; event: ConfiguredEvent }>(`${path}/${verb}`);
  if (ctx.json) return ctx.printJson(event);
  ctx.out(`${event.id}  ${event.type}  ${event.status}`);
  if (verb === 'enable' && event.status === 'armed')
    ctx.err(armedNote(event).replace('note: armed', 'note: enabled, but armed'));
}

export function toggleCommand(verb: ToggleVerb, makeCtx: ContextFactory): Command {
  const what = {
    enable: 'enable (resume) a configured event',
    disable: 'disable (pause) a configured event',
    delete: 'delete a configured event',
  }[verb];
  const cmd = withCompany(new Command(verb).description(what).argument('<id>', 'the configured event id (cev_…)'));
  return action(cmd, makeCtx, (ctx, flags, id: string) => runToggle(verb, id, flags, ctx));
}
