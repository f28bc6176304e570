import type { ActionCommand, Command, OptionValues } from './command-spec.js';
import type { CliContext, GlobalOptions } from './context.js';

/** Builds the context for a command from its flags merged with the global ones (--json, --url, --profile). */
export type ContextFactory = (globals: GlobalOptions) => CliContext;

/**
 * Wires an action to a `run(options, ctx)` function; errors travel up to main.ts. The action is
 * called by commander or by the fast path (fast-parse.ts), with the same arguments either way.
 */
export function action<A extends unknown[]>(
  cmd: Command,
  makeCtx: ContextFactory,
  // commander's own type for parsed flags: each command reads the ones it declared.
  run: (ctx: CliContext, flags: OptionValues, ...args: A) => Promise<void>,
): Command {
  return cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as ActionCommand;
    const flags = self.optsWithGlobals();
    const args = params.slice(0, -2) as A;
    await run(makeCtx({ json: flags.json, url: flags.url, profile: flags.profile }), flags, ...args);
  });
}
