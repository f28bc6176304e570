import { Command } from 'commander';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { bashScript, fishScript, zshScript } from '../../completion-scripts.js';
import { UsageError } from '../../errors.js';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** `svc completion bash|zsh|fish`: the script, generated from the command tree itself. */
export async function runCompletion(opts: { shell: string; program: Command }, ctx: CliContext): Promise<void> {
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
  return action(cmd, makeCtx, (ctx, _flags, shell: string) => {
    let root = cmd;
    while (root.parent) root = root.parent;
    return runCompletion({ shell, program: root }, ctx);
  });
}
