import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { readProfiles } from '../../profiles.js';
import { formatTable } from '../../table.js';

export interface ProfileRow {
  name: string;
  current: boolean;
  url: string | null;
  data_dir: string | null;
}

export function profileRows(ctx: CliContext): ProfileRow[] {
  return Object.entries(readProfiles(ctx.config())).map(([name, p]) => ({
    name,
    current: name === ctx.profile.name,
    url: p.url ?? null,
    data_dir: p.data_dir ?? null,
  }));
}

/** `svc profile list`: every profile, the one in use marked with `*`. */
export async function runProfileList(_opts: object, ctx: CliContext): Promise<void> {
  const rows = profileRows(ctx);
  if (ctx.json) return ctx.printList(rows);
  const where = (r: ProfileRow) =>
    r.url ?? (r.data_dir ? `local daemon of ${r.data_dir}` : 'local daemon of the default data folder');
  formatTable(
    ['', 'NAME', 'WHERE'],
    rows.map((r) => [r.current ? '*' : '', r.name, where(r)]),
  ).forEach((l) => {
    ctx.out(l);
  });
  if (ctx.profile.source !== 'svc profile use' && ctx.profile.source !== 'default')
    ctx.err(`(* chosen by ${ctx.profile.source})`);
}

export function profileListCommand(makeCtx: ContextFactory): Command {
  return action(new Command('list').description('list the profiles (* = the one in use)'), makeCtx, (ctx) =>
    runProfileList({}, ctx),
  );
}
