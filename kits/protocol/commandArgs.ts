// The arguments of a pane command checked against its declaration, zod-free, so
// the server's parser and the window's palette judge "split v 50" the same way.
import type { PaneCommand } from './model';

/** "split [h|v] [ratio]": the word and its arguments as a person types them. */
export function usage(cmd: PaneCommand): string {
  return [cmd.name, ...cmd.args.map((a) => {
    const shown = a.type === 'enum' && a.values ? a.values.join('|') : a.name;
    return a.optional ? `[${shown}]` : shown;
  })].join(' ');
}

/** The arguments after the word, by name; or a message naming the first wrong one. */
export function parseArgs(cmd: PaneCommand, rest: string): Record<string, string | number> | string {
  const out: Record<string, string | number> = {};
  let remaining = rest;
  for (const a of cmd.args) {
    if (a.type === 'text') {
      if (remaining === '' && !a.optional) return `missing ${a.name}`;
      if (remaining !== '') out[a.name] = remaining;
      remaining = '';
      break;
    }
    const m = /^(\S+)\s*(.*)$/s.exec(remaining);
    if (!m) {
      if (!a.optional) return `missing ${a.name}`;
      continue;
    }
    const tok = m[1]!;
    remaining = m[2]!;
    if (a.type === 'int') {
      if (!/^-?\d+$/.test(tok)) return `${a.name} must be a whole number, not "${tok}"`;
      out[a.name] = Number(tok);
    } else if (a.type === 'enum') {
      if (!a.values?.includes(tok)) return `${a.name} must be one of ${a.values?.join(', ')}, not "${tok}"`;
      out[a.name] = tok;
    } else out[a.name] = tok;
  }
  if (remaining.trim() !== '') return `unexpected "${remaining.trim()}"`;
  return out;
}
