import * as headless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { encodeLine } from './lineSgr';

type HeadlessModule = typeof headless;
const xterm: HeadlessModule = (headless as HeadlessModule & { default?: HeadlessModule }).default ?? headless;

async function written(data: string, cols = 40, rows = 12) {
  const t = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((r) => t.write(data, r));
  return t;
}

/** Replays an encoded row into a fresh terminal of the same width: its cells as the original's. */
async function replayed(encoded: string, cols: number) {
  return written(encoded, cols, 2);
}

function cellsOf(t: InstanceType<HeadlessModule['Terminal']>, y: number): string[] {
  const line = t.buffer.active.getLine(y)!;
  const c = t.buffer.active.getNullCell();
  const out: string[] = [];
  for (let x = 0; x < line.length; x++) {
    line.getCell(x, c);
    out.push(`${c.getChars() || ' '}/${c.getWidth()}/${c.isAttributeDefault() ? '-' : `${c.getFgColorMode()}:${c.getFgColor()}:${c.getBgColorMode()}:${c.getBgColor()}:${c.isBold()}${c.isItalic()}${c.isUnderline()}${c.isInverse()}`}`);
  }
  return out;
}

describe('encodeLine', () => {
  it('reads a row as its text, with SGR only where the attributes change', async () => {
    const t = await written('plain \x1b[1;31mbold red\x1b[0m and \x1b[38;2;1;2;3;48;5;200mrgb\x1b[0m end   ');
    const cell = t.buffer.active.getNullCell();
    expect(encodeLine(t.buffer.active.getLine(0)!, false, cell)).toBe('plain \x1b[0;1;31mbold red\x1b[0m and \x1b[0;38;2;1;2;3;48;5;200mrgb\x1b[0m end');
  });

  it('keeps wide characters, combining marks, emoji and empty cells exactly: replayed, every cell is the same', async () => {
    const rows = [
      'ascii only, the quick brown fox',
      '漢字かな mixed 全角 text',
      'e\u0301 combining: a\u0308o\u0308u\u0308 n\u0303',
      'emoji 👍🏽 and 🇩🇪 flag, ❤️ heart',
      '\x1b[7minverse 漢\x1b[0m\x1b[5Cgap\x1b[3Cafter',
      'tab\there\tand\tmore',
      '\x1b[4m\u00e9t\u00e9 caf\u00e9 na\u00efve\x1b[0m ÄÖÜ ß ∑ λ → ✓',
    ];
    for (const text of rows) {
      const t = await written(text + '\r\n', 40, 4);
      const cell = t.buffer.active.getNullCell();
      const enc = encodeLine(t.buffer.active.getLine(0)!, true, cell);
      const again = await replayed(enc, 40);
      expect(cellsOf(again, 0), JSON.stringify(text)).toEqual(cellsOf(t, 0));
      // And as text, what xterm itself reads (translateToString), SGR aside.
      expect(enc.replace(/\x1b\[[0-9;]*m/g, ''), JSON.stringify(text)).toBe(t.buffer.active.getLine(0)!.translateToString(false));
    }
  });

  it('drops trailing default blanks unless asked to keep them, and keeps coloured ones', async () => {
    const t = await written('abc   \r\n\x1b[41m   \x1b[0m\r\n', 10, 4);
    const cell = t.buffer.active.getNullCell();
    expect(encodeLine(t.buffer.active.getLine(0)!, false, cell)).toBe('abc');
    expect(encodeLine(t.buffer.active.getLine(0)!, true, cell)).toBe('abc       ');
    expect(encodeLine(t.buffer.active.getLine(1)!, false, cell)).toBe('\x1b[0;41m   \x1b[0m');
  });

  it('reads a row wider than one batch of codes whole', async () => {
    const cols = 10_000;
    const text = Array.from({ length: cols }, (_, i) => String.fromCharCode(33 + (i % 90))).join('');
    const t = await written(text, cols, 2);
    expect(encodeLine(t.buffer.active.getLine(0)!, false, t.buffer.active.getNullCell())).toBe(text);
  });
});
