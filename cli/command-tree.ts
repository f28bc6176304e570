import { Command as Commander, Option as CommanderOption } from 'commander';
import type { Command, Option } from './command-spec.js';

/**
 * Replays a recorded command (command-spec.ts) onto real commander objects, call by call in the
 * order the module wrote them, so commander builds exactly the program it built when the modules
 * called it directly: same help, same errors, same parsing.
 */
export function toCommander(spec: Command): Commander {
  const real = new Commander(spec.commandName);
  const target = real as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, args] of spec.calls) {
    if (method === 'addCommand') real.addCommand(toCommander(args[0] as Command));
    else if (method === 'addOption') real.addOption(toCommanderOption(args[0] as Option));
    else target[method]!.apply(real, args);
  }
  return real;
}

function toCommanderOption(spec: Option): CommanderOption {
  const real = new CommanderOption(spec.flags, spec.text);
  const target = real as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, args] of spec.calls) target[method]!.apply(real, args);
  return real;
}
