import type { Command } from 'commander';

/** One node of the command tree: its subcommands and options, for completion. */
interface Node {
  path: string;
  subs: Array<{ name: string; description: string }>;
  options: string[];
}

/** Walks the commander tree (every command loaded), so completion always matches the real commands. */
export function walkCommands(program: Command): Node[] {
  const nodes: Node[] = [];
  const globals = program.options.map((o) => o.long!).filter(Boolean);
  const visit = (cmd: Command, path: string) => {
    const own = cmd === program ? [] : cmd.options.map((o) => o.long!).filter(Boolean);
    nodes.push({
      path,
      subs: cmd.commands
        .filter((c) => c.name() !== 'help')
        .map((c) => ({ name: c.name(), description: c.description() })),
      options: [...new Set([...own, ...globals, '--help'])],
    });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return nodes;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function bashScript(program: Command): string {
  const nodes = walkCommands(program);
  const cases = (pick: (n: Node) => string[]) =>
    nodes.map((n) => `    ${quote(n.path)}) echo ${quote(pick(n).join(' '))} ;;`).join('\n');
  return `# svc completion for bash: eval "$(svc completion bash)" (or save it under ~/.local/share/bash-completion/completions/svc)
_svc_subs() {
  case "$1" in
${cases((n) => n.subs.map((s) => s.name))}
  esac
}
_svc_opts() {
  case "$1" in
${cases((n) => n.options)}
  esac
}
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    case " $(_svc_subs "$path") " in *" $w "*) path="\${path:+$path }$w" ;; esac
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_svc_opts "$path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_svc_subs "$path")" -- "$cur"))
  fi
}
complete -o default -F _svc svc
`;
}

/** zsh runs the bash function through its bashcompinit layer: one tree, one script to keep right. */
export function zshScript(program: Command): string {
  return `#compdef svc
# svc completion for zsh: eval "$(svc completion zsh)" in ~/.zshrc (after compinit)
autoload -U +X bashcompinit && bashcompinit
${bashScript(program).split('\n').slice(1).join('\n')}`;
}

export function fishScript(program: Command): string {
  const nodes = walkCommands(program);
  const lines = [
    '# svc completion for fish: svc completion fish > ~/.config/fish/completions/svc.fish',
    'complete -c svc -f',
  ];
  for (const n of nodes) {
    const words = n.path ? n.path.split(' ') : [];
    // At this node: every word of its path typed, and none of its subcommands yet.
    const cond = words.length
      ? [
          ...words.map((w) => `__fish_seen_subcommand_from ${w}`),
          ...(n.subs.length ? [`not __fish_seen_subcommand_from ${n.subs.map((s) => s.name).join(' ')}`] : []),
        ].join('; and ')
      : '__fish_use_subcommand';
    for (const s of n.subs)
      lines.push(`complete -c svc -n ${quote(cond)} -a ${quote(s.name)} -d ${quote(s.description.slice(0, 60))}`);
    for (const o of n.options) if (n.path) lines.push(`complete -c svc -n ${quote(cond)} -l ${o.replace(/^--/, '')}`);
  }
  return lines.join('\n') + '\n';
}
