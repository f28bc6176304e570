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

/**
 * Every long option that takes a value (`--profile <name>`): the word after it is that value, never
 * a command. A name that is a plain flag on some command (`events list --configured`) is left out.
 */
function valuedOptions(program: Command): string[] {
  const valued = new Set<string>();
  const flags = new Set<string>();
  const visit = (cmd: Command) => {
    for (const o of cmd.options) if (o.long) (o.required ? valued : flags).add(o.long);
    cmd.commands.forEach(visit);
  };
  visit(program);
  return [...valued].filter((o) => !flags.has(o)).sort();
}

/** The profile names, read when completing (`svc profile list --json name`), one a line. */
const PROFILE_NAMES_SH = `svc profile list --json name 2>/dev/null | grep -o '"name": *"[^"]*"' | sed 's/.*"\\([^"]*\\)"$/\\1/'`;

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
_svc_valued() {
  case "$1" in
    ${valuedOptions(program).join('|')}) return 0 ;;
  esac
  return 1
}
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" w i
  ((COMP_CWORD > 1)) && prev="\${COMP_WORDS[COMP_CWORD - 1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) _svc_valued "$w" && ((i++)); continue ;; esac
    case " $(_svc_subs "$path") " in *" $w "*) path="\${path:+$path }$w" ;; esac
  done
  # The value of an option: the profile names after --profile; nothing of svc's after the others
  # (bash's default completion then offers file names, right for --data and --out).
  if [[ "$prev" == --profile ]]; then
    COMPREPLY=($(compgen -W "$(${PROFILE_NAMES_SH})" -- "$cur"))
    return
  fi
  if _svc_valued "$prev"; then
    COMPREPLY=()
    return
  fi
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
  // After --profile: the profile names only (-x: a value is required, and it is one of these).
  lines.push(
    `complete -c svc -l profile -x -a ${quote(`(svc profile list --json name 2>/dev/null | string match -r -g '"name": *"([^"]*)"')`)}`,
  );
  return lines.join('\n') + '\n';
}
