// One xterm buffer row as compact text: its characters with an SGR sequence only
// where the attributes change, from the public buffer API (no xterm internals), so
// the compact history (historyStore.ts) keeps colour at a few bytes per change.
import type { IBufferCell, IBufferLine } from '@xterm/headless';

/** SGR parameters of a cell's attributes, from a reset ("" for the default attributes). */
function sgrOf(c: IBufferCell): string {
  const p: string[] = [];
  if (c.isBold()) p.push('1');
  if (c.isDim()) p.push('2');
  if (c.isItalic()) p.push('3');
  if (c.isUnderline()) p.push('4');
  if (c.isBlink()) p.push('5');
  if (c.isInverse()) p.push('7');
  if (c.isInvisible()) p.push('8');
  if (c.isStrikethrough()) p.push('9');
  if (c.isOverline()) p.push('53');
  color(p, c.isFgRGB(), c.isFgPalette(), c.getFgColor(), 30, 90, 38);
  color(p, c.isBgRGB(), c.isBgPalette(), c.getBgColor(), 40, 100, 48);
  return p.join(';');
}

function color(p: string[], rgb: boolean, palette: boolean, v: number, base: number, bright: number, ext: number): void {
  if (rgb) p.push(`${ext};2;${(v >> 16) & 255};${(v >> 8) & 255};${v & 255}`);
  else if (palette) p.push(v < 8 ? String(base + v) : v < 16 ? String(bright + v - 8) : `${ext};5;${v}`);
}

function blank(c: IBufferCell): boolean {
  const code = c.getCode();
  return (code === 0 || code === 32) && c.isAttributeDefault();
}

/** Style flags of a cell as bits (SGR 1, 2, 3, 4, 5, 7, 8, 9, 53). */
function flags(c: IBufferCell): number {
  return (c.isBold() ? 1 : 0) | (c.isDim() ? 2 : 0) | (c.isItalic() ? 4 : 0) | (c.isUnderline() ? 8 : 0) | (c.isBlink() ? 16 : 0) | (c.isInverse() ? 32 : 0) | (c.isInvisible() ? 64 : 0) | (c.isStrikethrough() ? 128 : 0) | (c.isOverline() ? 256 : 0);
}

/** The current run's ASCII bytes, reused for every row (grown for a wider one): made into a string without a copy. */
let run = Buffer.allocUnsafe(512);
let runLength = 0;

/** The bytes gathered so far as a string, and the run emptied. */
function flushRun(): string {
  const s = run.toString('latin1', 0, runLength);
  runLength = 0;
  return s;
}

/**
 * The row's text with SGR where attributes change; trailing default blanks are
 * dropped unless `keepTrailing` (a row that wraps into the next must keep its full
 * width, or replaying it would join the wrong columns). Ends in the default attributes.
 *
 * The text is gathered in the same pass that reads the attributes: ASCII as bytes, made
 * into one string per run, anything else as the cell's own string. (xterm's
 * translateToString appends cell by cell, one intermediate string each: it made 2.4 KB
 * of garbage per 100-column row, 96% of everything the screen worker allocated while 20
 * panes printed their histories, and that garbage was most of the daemon's peak memory.)
 */
export function encodeLine(line: IBufferLine, keepTrailing: boolean, cell: IBufferCell): string {
  let end = line.length;
  if (!keepTrailing) while (end > 0 && blank(line.getCell(end - 1, cell)!)) end--;
  let out = '';
  // The run's attributes as two exact numbers: colour mode | value (26 bits) of each plane, the flags beside the foreground's.
  let fg = 0;
  let bg = 0;
  let curSgr = '';
  runLength = 0;
  if (run.length < end) run = Buffer.allocUnsafe(end);
  for (let x = 0; x < end; x++) {
    const c = line.getCell(x, cell)!;
    if (c.getWidth() === 0) continue; // the right half of a wide character
    const plain = c.isAttributeDefault();
    const f = plain ? 0 : ((c.getFgColorMode() | c.getFgColor()) >>> 0) * 512 + flags(c) + 1;
    const b = plain ? 0 : (c.getBgColorMode() | c.getBgColor()) >>> 0;
    if (f !== fg || b !== bg) {
      if (runLength) out += flushRun();
      const sgr = plain ? '' : sgrOf(c);
      if (sgr !== curSgr) out += sgr ? `\x1b[0;${sgr}m` : '\x1b[0m';
      fg = f;
      bg = b;
      curSgr = sgr;
    }
    // An empty cell reads as a space (as translateToString has it). A code under 0x80 is one
    // plain character: a combined cell's last code is its combining mark, never ASCII.
    const code = c.getCode();
    if (code === 0) run[runLength++] = 32;
    else if (code < 0x80) run[runLength++] = code;
    else {
      if (runLength) out += flushRun();
      out += c.getChars();
    }
  }
  if (runLength) out += flushRun();
  return curSgr ? `${out}\x1b[0m` : out;
}
