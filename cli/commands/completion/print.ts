import type { Command as Commander } from 'commander';
import { Command } from '../../command-spec.js';
import type { ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { bashScript, fishScript, zshScript } from '../../completion-scripts.js';
import { UsageError } from '../../errors.js';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** `svc completion bash|zsh|fish`: the script, generated from the command tree itself. */
export async function runCompletion(opts: { shell: string; program: Commander }, ctx: CliContext): Promise<void> {
  const make = SHELLS[opts.shell as keyof typeof SHELLS];
  if (!make) throw new UsageError(`no completion for '${opts.shell}'`, 'use bash, zsh or fish');
  ctx.io.stdout.write(make(opts.program));
}

export function completionCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', 'bash | zsh | fish')
    .addHelpText(
      'after',
      '\nExamples:\n  eval "$(svc completion bash)"      # in ~/.bashrc\n  eval "$(svc completion zsh)"       # in ~/.zshrc\n  svc completion fish > ~/.config/fish/completions/svc.fish',
    );
  // The script is made from commander's whole tree: `completion` always runs through commander,
  // with every command loaded (argv.ts), so the command handed to the action is commander's.
  return cmd.action(async (shell: unknown, _opts: unknown, self: unknown) => {
    let root = self as Commander;
    while (root.parent) root = root.parent;
    const flags = (self as Commander).optsWithGlobals();
    const ctx = makeCtx({ json: flags.json, url: flags.url, profile: flags.profile });
    await runCompletion({ shell: shell as string, program: root }, ctx);
  });
}
