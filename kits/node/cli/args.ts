// A small strict argument parser driven by the command table: every flag is
// declared (name, type, doc), so the same declarations produce `pane help`.
import { UsageError } from './errors';
import { suggest } from './suggest';

/** A pane address as the protocol accepts it: N or HOST:N. */
export const PANE_REF = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/;

export type FlagType = 'string' | 'int' | 'bool' | 'enum' | 'pane';

export interface FlagSpec {
  /** Long name without dashes (`session` for --session); the key in ParsedArgs.flags. */
  name: string;
  /** One-letter alias without its dash (`t` for -t). */
  short?: string;
  type: FlagType;
  /** What the value looks like in usage lines (ID, PCT, DIR...). */
  value?: string;
  /** enum: accepted words; `aliases` maps short forms to them (h → horizontal). */
  values?: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  /** int: inclusive bounds. */
  min?: number;
  max?: number;
  required?: boolean;
  /** Names of flags this one cannot be combined with. */
  conflicts?: readonly string[];
  doc: string;
}

export interface PositionalSpec {
  name: string;
  required?: boolean;
  /** Takes every remaining positional word. */
  variadic?: boolean;
  /** Accepted words, when the positional is an enum (watch FAMILY...). */
  values?: readonly string[];
}

export interface ArgSpec {
  /** The command's full name, for messages ("split", "session new"). */
  command: string;
  flags: readonly FlagSpec[];
  positionals?: readonly PositionalSpec[];
  /** Words after `--` are a program and its args (split, new) instead of positionals. */
  program?: boolean;
}

export type FlagValue = string | number | boolean;

export interface ParsedArgs {
  flags: Record<string, FlagValue | undefined>;
  positionals: string[];
  /** `-- PROGRAM ARGS...` when the spec takes a program and one was given. */
  program: string[] | undefined;
}

/** Flags every command accepts, wherever they appear before `--`. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: 'socket', type: 'string', value: 'P', doc: 'server socket (default: $PANE_SOCKET, then the per-user default)' },
  { name: 'help', short: 'h', type: 'bool', doc: 'show this help' },
];

function flagLabel(f: FlagSpec): string {
  return f.short !== undefined ? `-${f.short}` : `--${f.name}`;
}

/** Parses a value of a flag's type, or throws a UsageError naming the flag and the value. */
function convert(spec: ArgSpec, f: FlagSpec, raw: string, shown: string): FlagValue {
  switch (f.type) {
    case 'string':
      return raw;
    case 'int': {
      if (!/^-?[0-9]+$/.test(raw)) throw new UsageError(`${shown}: '${raw}' is not a whole number`, spec.command);
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) throw new UsageError(`${shown}: '${raw}' is too large`, spec.command);
      if (f.min !== undefined && n < f.min) throw new UsageError(`${shown}: ${n} is below the minimum ${f.min}`, spec.command);
      if (f.max !== undefined && n > f.max) throw new UsageError(`${shown}: ${n} is above the maximum ${f.max}`, spec.command);
      return n;
    }
    case 'enum': {
      const v = f.aliases?.[raw] ?? raw;
      if (!(f.values ?? []).includes(v)) {
        const words = [...Object.keys(f.aliases ?? {}), ...(f.values ?? [])];
        throw new UsageError(`${shown}: '${raw}' is not one of ${[...new Set(words)].join(', ')}`, spec.command);
      }
      return v;
    }
    case 'pane':
      if (!PANE_REF.test(raw)) throw new UsageError(`${shown}: '${raw}' is not a pane id (N or HOST:N, e.g. 3 or devbox:3)`, spec.command);
      return raw;
    case 'bool':
      return true;
  }
}

/**
 * Parses argv (the words after the command name) against a spec.
 * Accepts `--name value`, `--name=value`, `-x value`; booleans take no value;
 * a flag given twice, an unknown flag, a missing value or a bad number is a UsageError.
 */
export function parseArgs(spec: ArgSpec, argv: readonly string[]): ParsedArgs {
  const all = [...spec.flags, ...GLOBAL_FLAGS];
  const byLong = new Map(all.map((f) => [f.name, f]));
  const byShort = new Map(all.filter((f) => f.short !== undefined).map((f) => [f.short as string, f]));
  const flags: Record<string, FlagValue | undefined> = {};
  const positionals: string[] = [];
  let program: string[] | undefined;

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') {
      const rest = argv.slice(i + 1);
      if (spec.program) {
        if (rest.length === 0) throw new UsageError('nothing after --: give a program to run, e.g. -- htop', spec.command);
        program = rest;
      } else positionals.push(...rest);
      break;
    }
    let f: FlagSpec | undefined;
    let shown: string;
    let inline: string | undefined;
    if (word.startsWith('--') && word.length > 2) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
      inline = eq < 0 ? undefined : word.slice(eq + 1);
      shown = `--${name}`;
      f = byLong.get(name);
    } else if (word.startsWith('-') && word.length > 1 && !/^-[0-9]/.test(word)) {
      shown = word;
      f = word.length === 2 ? byShort.get(word.slice(1)) : undefined;
      if (f === undefined && word.length > 2) {
        throw new UsageError(`unknown flag ${word} (write each flag separately, e.g. -t 3)`, spec.command);
      }
    } else {
      positionals.push(word);
      continue;
    }
    if (f === undefined) {
      // A long flag mistyped (--jsn): the command's nearest flags, as a mistyped command gets its nearest commands.
      // Flags are short words: one edit away below six letters (--nope is not --name), two from there.
      const typed = shown.slice(2);
      const near = word.startsWith('--') ? suggest(typed, [...byLong.keys()], typed.length >= 6 ? 2 : 1) : [];
      throw new UsageError(`unknown flag ${shown}${near.length > 0 ? ` (did you mean ${near.map((n) => `--${n}`).join(' or ')}?)` : ''}`, spec.command);
    }
    if (flags[f.name] !== undefined) throw new UsageError(`${shown} given twice`, spec.command);
    if (f.type === 'bool') {
      if (inline !== undefined) throw new UsageError(`${shown} takes no value`, spec.command);
      flags[f.name] = true;
      continue;
    }
    let raw = inline;
    if (raw === undefined) {
      // The next word is the value even when it starts with "-": a flag that
      // needs a value always takes one, so `--name -x` names something "-x".
      if (i + 1 >= argv.length) throw new UsageError(`${shown} needs a value (${f.value ?? f.type})`, spec.command);
      raw = argv[++i] as string;
    }
    flags[f.name] = convert(spec, f, raw, shown);
  }

  if (flags.help === true) return { flags, positionals, program };

  for (const f of spec.flags) {
    if (f.required && flags[f.name] === undefined) throw new UsageError(`missing ${flagLabel(f)} ${f.value ?? ''}`.trimEnd(), spec.command);
    for (const other of f.conflicts ?? []) {
      const o = byLong.get(other);
      if (flags[f.name] !== undefined && o !== undefined && flags[other] !== undefined) {
        throw new UsageError(`${flagLabel(f)} and ${flagLabel(o)} cannot be used together`, spec.command);
      }
    }
  }
  checkPositionals(spec, positionals);
  return { flags, positionals, program };
}

function checkPositionals(spec: ArgSpec, words: readonly string[]): void {
  const ps = spec.positionals ?? [];
  let i = 0;
  for (const p of ps) {
    const take = p.variadic ? words.slice(i) : words.slice(i, i + 1);
    if (p.required && take.length === 0) throw new UsageError(`missing ${p.name}`, spec.command);
    if (p.values) {
      for (const w of take) {
        if (!p.values.includes(w)) throw new UsageError(`${p.name}: '${w}' is not one of ${p.values.join(', ')}`, spec.command);
      }
    }
    i += take.length;
  }
  if (i < words.length) {
    const hint = spec.program ? ' (put a program after --, e.g. -- htop)' : '';
    throw new UsageError(`unexpected argument '${words[i]}'${hint}`, spec.command);
  }
}

/** The usage line of a command, built from its declarations. */
export function usageLine(spec: ArgSpec): string {
  const parts = [`pane ${spec.command}`];
  for (const f of spec.flags) {
    const name = flagLabel(f);
    const value = f.type === 'bool' ? '' : ` ${f.value ?? (f.type === 'enum' ? (f.values ?? []).join('|') : f.type.toUpperCase())}`;
    parts.push(f.required ? `${name}${value}` : `[${name}${value}]`);
  }
  for (const p of spec.positionals ?? []) {
    const w = p.variadic ? `${p.name}...` : p.name;
    parts.push(p.required ? w : `[${w}]`);
  }
  if (spec.program) parts.push('[-- PROGRAM ARGS...]');
  return parts.join(' ');
}

/** Typed readers over ParsedArgs, so handlers do not cast. */
export function str(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags[name];
  return typeof v === 'string' ? v : undefined;
}
export function int(a: ParsedArgs, name: string): number | undefined {
  const v = a.flags[name];
  return typeof v === 'number' ? v : undefined;
}
export function bool(a: ParsedArgs, name: string): boolean {
  return a.flags[name] === true;
}
