// Turns one command line ("split v 50", "resize right 5", "name build") into the
// protocol request it stands for, checked against the pane's vocabulary, so a tag
// click, the palette, /pane/<n>/ctl and `pane exec` all do exactly the same thing.
import type { MethodName, ParamsIn } from '../../kits/protocol/index';
import { parseArgs, usage } from '../../kits/protocol/commandArgs';
import type { Pane } from '../../kits/protocol/model';
import { remoteOf } from './bodies/remote';
import { appWordRequest } from './appWords';
import { bodyOf } from './bodies/registry';

export { usage };

export interface CommandRequest<M extends MethodName = MethodName> {
  method: M;
  params: ParamsIn<M>;
}

/**
 * A line's request, or why it has none: `unknownWord` (not a word of the pane), `cannot`
 * (a well-formed word that cannot run now: an agent with no worktree to review, a
 * stand-in naming no remote pane), else a line written wrong (its arguments).
 */
export type Parsed = { ok: true; request: CommandRequest; word: string } | { ok: false; message: string; unknownWord?: boolean; cannot?: boolean };

/** Splits into the command word and its args, checking each against the vocabulary. */
export function parseCommandLine(pane: Pane, line: string): Parsed {
  const trimmed = line.trim();
  if (trimmed === '') return { ok: false, message: 'empty command' };
  const m = /^(\S+)\s*(.*)$/s.exec(trimmed)!;
  const word = m[1]!;
  const rest = m[2]!;
  const cmd = pane.vocabulary.find((c) => c.name === word);
  if (!cmd) {
    return { ok: false, unknownWord: true, message: `unknown command "${word}" for pane ${pane.n}; known: ${pane.vocabulary.map((c) => c.name).join(' ')}` };
  }
  const args = parseArgs(cmd, rest);
  if (typeof args === 'string') return { ok: false, message: `${word}: ${args}; usage: ${usage(cmd)}` };
  // A word a stand-in borrowed from its remote pane runs there, as that host parses it.
  const remote = cmd.remote ? remoteOf(pane) : undefined;
  if (remote) return { ok: true, request: req('pane/exec', { pane: remote, line: trimmed }), word };
  // A word an app file added: the request its action stands for, as whoever runs it.
  const request = cmd.action ? appWordRequest(pane, cmd, args) : toRequest(pane, word, args);
  if (typeof request === 'string') return { ok: false, message: `${word}: ${request}`, ...(cmd.action ? {} : { cannot: true }) };
  return { ok: true, request, word };
}

function req<M extends MethodName>(method: M, params: ParamsIn<M>): CommandRequest {
  return { method, params } as CommandRequest;
}

function toRequest(pane: Pane, word: string, a: Record<string, string | number>): CommandRequest | string {
  const p = pane.n;
  // A word of the pane's body (an agent's views, a stand-in's kill) means what its provider says.
  const own = bodyOf(pane.kind).meaning?.(pane, word, a);
  if (own !== undefined) return own as CommandRequest;
  switch (word) {
    case 'close':
      return req('pane/close', { pane: p });
    case 'zoom':
      return req('pane/zoom', { pane: p });
    case 'split':
      return req('pane/split', {
        pane: p,
        direction: a.direction === 'v' ? 'vertical' : 'horizontal',
        ...(a.ratio !== undefined ? { ratio: a.ratio as number } : {}),
      });
    case 'focus':
      return a.direction ? req('pane/focus', { pane: p, direction: a.direction as 'left' }) : req('pane/focus', { pane: p });
    case 'resize':
      return req('pane/resize', { pane: p, direction: a.direction as 'left', cells: (a.cells as number | undefined) ?? 1 });
    case 'swap':
      return req('pane/swap', { pane: p, direction: (a.direction as 'next' | undefined) ?? 'next' });
    case 'name':
      return req('pane/tag', { pane: p, name: String(a.name) });
    case 'float':
      return req('pane/float', { pane: p, mode: 'float' });
    case 'tile':
      return req('pane/float', { pane: p, mode: 'tile' });
    case 'raise':
      return req('float/raise', { pane: p });
    case 'lower':
      return req('float/lower', { pane: p });
    case 'move':
      return req('float/move', { pane: p, x: a.x as number, y: a.y as number });
    case 'size':
      return req('float/resize', { pane: p, w: a.w as number, h: a.h as number });
    case 'restart':
      return req('pane/restart', { pane: p });
    case 'interrupt':
      return req('pane/input', { pane: p, data: '\x03' });
    case 'send':
      return req('pane/input', { pane: p, data: `${String(a.text ?? '')}\r` });
    default:
      return `"${word}" has no default action; an app that declares it handles it through the pane's event stream`;
  }
}
