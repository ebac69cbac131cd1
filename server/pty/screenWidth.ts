// A terminal as its screen shows it, for xterm's serialize addon. xterm reflows only
// the normal buffer when the width shrinks; the alternate screen (vim, less, htop, an
// agent's full-screen UI) keeps each row's cells past the new width, and a row reads
// as its old, wider length. The addon writes every row to its line's length, so such
// a row's unused cells past the edge looked like a row that cannot wrap by itself,
// and it forced the wrap with a row of '-' it then meant to erase: every window or
// guest attaching to a full-screen program whose pane had been made narrower drew
// rows of dashes until the program redrew (a pane split beside vim did it).
import type { IBuffer, IBufferCell, IBufferLine, IBufferNamespace, Terminal } from '@xterm/headless';

/** `target[key]`, with a method bound to the target (xterm's API objects read their own fields). */
function member<T extends object>(target: T, key: string | symbol): unknown {
  const v: unknown = Reflect.get(target, key, target);
  return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
}

/** The row as wide as the screen, or the row itself when it is no wider. */
export function rowAtWidth(line: IBufferLine | undefined, cols: number): IBufferLine | undefined {
  if (line === undefined || line.length <= cols) return line;
  return {
    isWrapped: line.isWrapped,
    length: cols,
    getCell: (x: number, cell?: IBufferCell) => (x < cols ? line.getCell(x, cell) : undefined),
    translateToString: (trimRight?: boolean, start = 0, end = cols) => line.translateToString(trimRight, start, Math.min(end, cols)),
  };
}

function bufferAtWidth(buffer: IBuffer, term: Terminal): IBuffer {
  return new Proxy(buffer, {
    get: (t, k) => (k === 'getLine' ? (y: number) => rowAtWidth(t.getLine(y), term.cols) : member(t, k)),
  });
}

/**
 * The terminal whose buffers' rows end at its width (`term.cols` read at each call,
 * so the view follows resizes). Everything else is the terminal's own.
 */
export function atScreenWidth(term: Terminal): Terminal {
  const buffers = new Proxy(term.buffer, {
    get: (t, k) => (k === 'normal' || k === 'alternate' || k === 'active' ? bufferAtWidth(t[k], term) : member(t, k)),
  }) as IBufferNamespace;
  return new Proxy(term, { get: (t, k) => (k === 'buffer' ? buffers : member(t, k)) });
}
