// bash, zsh and fish completions for `pane`, written from the command table (as
// `pane help` and pane(1) are), so a new command or flag completes once it is
// declared. test/packaging/generated.test.ts keeps packaging/completions/ in step.
import { GLOBAL_FLAGS, type FlagSpec } from './args';
import type { CommandSpec } from './command';

const HEADER = 'generated from the CLI’s command table by kits/node/cli/completions.ts; do not edit.';
const VERSION_FLAG: FlagSpec = { name: 'version', short: 'V', type: 'bool', doc: 'print the version of pane and of its protocol' };

interface Shape {
  /** First words, in table order (a group such as "session" once). */
  tops: { word: string; summary: string }[];
  /** Group word → its subcommands. */
  groups: Map<string, CommandSpec[]>;
}

function shape(table: readonly CommandSpec[]): Shape {
  const tops: Shape['tops'] = [];
  const groups = new Map<string, CommandSpec[]>();
  for (const c of table) {
    const [first = '', sub] = c.command.split(' ');
    if (sub !== undefined) {
      if (!groups.has(first)) {
        groups.set(first, []);
        tops.push({ word: first, summary: `${first} commands` });
      }
      groups.get(first)?.push(c);
    } else tops.push({ word: first, summary: c.summary });
  }
  for (const t of tops) {
    const subs = groups.get(t.word);
    if (subs) t.summary = `${t.word} commands: ${subs.map((c) => c.command.split(' ')[1]).join(', ')}`;
  }
  return { tops, groups };
}

const flagWords = (f: FlagSpec): string[] => [...(f.short !== undefined ? [`-${f.short}`] : []), `--${f.name}`];
const flagsOf = (c: CommandSpec): FlagSpec[] => (c.passthrough ? [] : [...c.flags, ...GLOBAL_FLAGS]);
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
/** Whether a flag's value is a path (complete file names) by its declared value word. */
const isPath = (f: FlagSpec): boolean => /^(DIR|PATH|FILE|P)$/.test(f.value ?? '');
const bashValues = (f: FlagSpec): string => (f.type === 'enum' ? [...Object.keys(f.aliases ?? {}), ...(f.values ?? [])].join(' ') : isPath(f) ? '@files' : '');

/** bash: `complete -F _pane pane`; needs nothing from bash-completion. */
export function bashCompletion(table: readonly CommandSpec[]): string {
  const { tops, groups } = shape(table);
  const caseOf = (rows: [string, string][]): string => rows.map(([k, v]) => `    ${sq(k)}) echo ${sq(v)} ;;`).join('\n');
  const valued = table.flatMap((c) => flagsOf(c).filter((f) => f.type !== 'bool').flatMap((f) => flagWords(f).map((w) => [`${c.command} ${w}`, f] as const)));
  return `# bash completion for pane(1): ${HEADER}
_pane_subs() {
  case $1 in
${caseOf([...groups].map(([g, cs]) => [g, cs.map((c) => c.command.split(' ')[1]).join(' ')]))}
  esac
}
_pane_flags() {
  case $1 in
${caseOf(table.map((c) => [c.command, flagsOf(c).flatMap(flagWords).join(' ')]))}
  esac
}
# A flag's words when it takes a value (@files for a path, "" for free text); fails for a bool flag.
_pane_value() {
  case "$1 $2" in
${valued.map(([k, f]) => `    ${sq(k)}) echo ${sq(bashValues(f))} ;;`).join('\n')}
    *) return 1 ;;
  esac
}
_pane_positional() {
  case $1 in
${caseOf(table.filter((c) => c.positionals?.some((p) => p.values)).map((c) => [c.command, (c.positionals ?? []).flatMap((p) => p.values ?? []).join(' ')]))}
  esac
}
_pane() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd= i w
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ -z $cmd ]]; then
      case $w in
        --socket) ((i++)) ;;
        -*) ;;
        *) cmd=$w ;;
      esac
    elif [[ -n $(_pane_subs "$cmd") && $cmd != *' '* && $w != -* ]]; then
      cmd="$cmd $w"
    elif [[ $w == -- ]]; then
      return 0 # a program and its arguments follow: complete as the shell would
    fi
  done
  if [[ -z $cmd ]]; then
    if [[ $prev == --socket ]]; then COMPREPLY=($(compgen -f -- "$cur")); return 0; fi
    COMPREPLY=($(compgen -W ${sq([...tops.map((t) => t.word), '--socket', '--help', '-h', '--version', '-V'].join(' '))} -- "$cur"))
    return 0
  fi
  local subs
  subs=$(_pane_subs "$cmd")
  if [[ -n $subs && $cmd != *' '* ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return 0; fi
  local values
  if values=$(_pane_value "$cmd" "$prev"); then
    if [[ $values == @files ]]; then COMPREPLY=($(compgen -f -- "$cur")); elif [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); fi
    return 0
  fi
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$(_pane_flags "$cmd")" -- "$cur")); return 0; fi
  values=$(_pane_positional "$cmd")
  if [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _pane pane
`;
}

/** zsh: an `#compdef pane` function for a directory on $fpath (file name `_pane`). */
export function zshCompletion(table: readonly CommandSpec[]): string {
  const { tops, groups } = shape(table);
  const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/'/g, `'\\''`).replace(/([[\]:])/g, '\\$1');
  const spec = (f: FlagSpec): string => {
    const words = flagWords(f);
    const excl = words.length > 1 ? `(${words.join(' ')})` : '';
    const names = words.length > 1 ? `{${words.join(',')}}` : words[0];
    const value = f.type === 'bool' ? '' : f.type === 'enum' ? `:${f.value ?? 'value'}:(${[...(f.values ?? [])].join(' ')})` : `:${f.value ?? f.type}:${isPath(f) ? '_files' : ' '}`;
    return `'${excl}'${names}'[${esc(f.doc)}]${value}'`;
  };
  const args = (c: CommandSpec): string => {
    const rest = c.program ? `'*::program:_normal'` : (c.positionals ?? []).some((p) => p.values) ? `'*:${(c.positionals ?? []).map((p) => p.name).join(' ')}:(${(c.positionals ?? []).flatMap((p) => p.values ?? []).join(' ')})'` : `'*:argument:_files'`;
    return `_arguments -s ${[...flagsOf(c).map(spec), rest].join(' ')}`;
  };
  const describe = (name: string, rows: { word: string; summary: string }[]): string =>
    `local -a ${name}; ${name}=(${rows.map((r) => `'${r.word}:${esc(r.summary)}'`).join(' ')})`;
  const single = table.filter((c) => !c.command.includes(' '));
  return `#compdef pane
# zsh completion for pane(1): ${HEADER}
_pane() {
  local curcontext=$curcontext state line
  ${describe('cmds', tops)}
  _arguments -C ${[...GLOBAL_FLAGS, VERSION_FLAG].map(spec).join(' ')} '1:command:->cmd' '*::argument:->args'
  case $state in
    cmd) _describe -t commands 'pane command' cmds ;;
    args)
      case $words[1] in
${[...groups]
  .map(
    ([g, cs]) => `        ${g})
          if (( CURRENT == 2 )); then
            ${describe('subs', cs.map((c) => ({ word: c.command.split(' ')[1] as string, summary: c.summary })))}
            _describe -t commands '${g} command' subs
          else
            shift words; (( CURRENT-- ))
            case $words[1] in
${cs.map((c) => `              ${c.command.split(' ')[1]}) ${args(c)} ;;`).join('\n')}
            esac
          fi ;;`,
  )
  .join('\n')}
${single.map((c) => `        ${c.command}) ${c.passthrough ? `_arguments '*:argument:_files'` : args(c)} ;;`).join('\n')}
      esac ;;
  esac
}
_pane "$@"
`;
}

/** fish: one `complete -c pane` line per command, flag and value. */
export function fishCompletion(table: readonly CommandSpec[]): string {
  const { tops, groups } = shape(table);
  const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const flagLine = (cond: string, f: FlagSpec): string => {
    const parts = [`complete -c pane -n ${q(cond)}`];
    if (f.short !== undefined) parts.push(`-s ${f.short}`);
    parts.push(`-l ${f.name}`);
    if (f.type === 'enum') parts.push(`-x -a ${q([...(f.values ?? [])].join(' '))}`);
    else if (f.type !== 'bool') parts.push('-r');
    parts.push(`-d ${q(f.doc)}`);
    return parts.join(' ');
  };
  const lines = [`# fish completion for pane(1): ${HEADER}`, 'complete -c pane -f'];
  for (const f of [...GLOBAL_FLAGS, VERSION_FLAG]) lines.push(flagLine('__fish_use_subcommand', f));
  for (const t of tops) lines.push(`complete -c pane -n __fish_use_subcommand -a ${t.word} -d ${q(t.summary)}`);
  for (const [g, cs] of groups) {
    const words = cs.map((c) => c.command.split(' ')[1]).join(' ');
    for (const c of cs) lines.push(`complete -c pane -n ${q(`__fish_seen_subcommand_from ${g}; and not __fish_seen_subcommand_from ${words}`)} -a ${c.command.split(' ')[1]} -d ${q(c.summary)}`);
  }
  for (const c of table) {
    if (c.passthrough) continue;
    const [first, sub] = c.command.split(' ');
    const cond = sub === undefined ? `__fish_seen_subcommand_from ${first}` : `__fish_seen_subcommand_from ${first}; and __fish_seen_subcommand_from ${sub}`;
    for (const f of c.flags) lines.push(flagLine(cond, f));
    const values = (c.positionals ?? []).flatMap((p) => p.values ?? []);
    if (values.length > 0) lines.push(`complete -c pane -n ${q(cond)} -a ${q(values.join(' '))}`);
    else if ((c.positionals ?? []).length > 0 || c.program) lines.push(`complete -c pane -n ${q(cond)} -F`);
  }
  return lines.join('\n') + '\n';
}
