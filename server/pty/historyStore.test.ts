import * as headless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { BLOCK_LINES, blockSerialized, HistoryStore } from './historyStore';
import { LIVE_SCROLLBACK, REST_LIVE_ROWS, ScreenHistory, xtermScrollback } from './screenHistory';

type HeadlessModule = typeof headless;
const xterm: HeadlessModule = (headless as HeadlessModule & { default?: HeadlessModule }).default ?? headless;

function term(cols: number, height: number, limit: number) {
  const t = new xterm.Terminal({ cols, rows: height, scrollback: xtermScrollback(limit), allowProposedApi: true });
  const h = new ScreenHistory(t, limit);
  const write = (s: string | Uint8Array) => new Promise<void>((r) => h.write(typeof s === 'string' ? new TextEncoder().encode(s) : s, r));
  /** Every row of history then the screen, plain, as the worker's text() reads them. */
  const rows = () => {
    const buf = t.buffer.normal;
    const out = h.store.text();
    for (let i = buf.baseY - h.uncaptured; i < buf.length; i++) out.push(buf.getLine(i)!.translateToString(true).trimEnd());
    return out;
  };
  return { t, h, write, rows };
}

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}\r\n`).join('');

/** Replays serialized history into a fresh terminal as wide as the source: what a late attacher's xterm does. */
async function replay(serialized: string, cols: number) {
  const t = new xterm.Terminal({ cols, rows: 5, scrollback: 100_000, allowProposedApi: true });
  await new Promise<void>((r) => t.write(serialized, r));
  return t;
}

describe('HistoryStore', () => {
  it('packs rows into blocks and drops whole old blocks past its limit', () => {
    const s = new HistoryStore(1000);
    for (let i = 0; i < 3000; i++) s.push(`row ${i}`, false);
    expect(s.lines).toBeGreaterThanOrEqual(1000);
    expect(s.lines).toBeLessThan(1000 + BLOCK_LINES);
    expect(s.blocks().every((b) => b.lines === BLOCK_LINES)).toBe(true);
    const text = s.text();
    expect(text[text.length - 1]).toBe('row 2999');
    expect(s.text(3)).toEqual(['row 2997', 'row 2998', 'row 2999']);
    expect(Number(text[0]!.slice(4))).toBe(3000 - s.lines); // in order, none missing
  });

  it('says how many rows a gap lost, as a row of its own', () => {
    const s = new HistoryStore(100);
    s.push('before', true); // a soft wrap must not join the notice
    s.lost(42);
    s.push('after', false);
    expect(s.text()).toEqual(['before', '[42 lines lost]', 'after']);
    expect(blockSerialized(s.tail())).toContain('before\r\n');
  });

  it('clears everything and keeps numbering blocks after', () => {
    const s = new HistoryStore(10_000);
    for (let i = 0; i < BLOCK_LINES + 5; i++) s.push(`r${i}`, false);
    s.clear();
    expect([s.lines, s.text()]).toEqual([0, []]);
    for (let i = 0; i < BLOCK_LINES; i++) s.push('x', false);
    expect(s.blocks()[0]!.seq).toBe(1);
  });
});

describe('ScreenHistory over a real headless xterm', () => {
  it('rests: lets xterm drop its slack rows once quiet, loses nothing, and takes the slack back for new output', async () => {
    const { t, h, write, rows } = term(40, 10, 10_000);
    await write(lines('a', 3000));
    expect(t.buffer.normal.length).toBeGreaterThan(LIVE_SCROLLBACK + 10 + 64);
    h.rest();
    expect(t.buffer.normal.length).toBe(REST_LIVE_ROWS + 10);
    expect(rows().filter((r) => r !== '')).toEqual(Array.from({ length: 3000 }, (_, i) => `a${i}`));
    // New output (here one piece of 200 rows, more than fit beside the live rows) is kept whole.
    await write(lines('b', 200));
    await write(lines('c', 2000));
    expect(t.buffer.normal.length).toBeGreaterThan(LIVE_SCROLLBACK + 10);
    const want = [...Array.from({ length: 3000 }, (_, i) => `a${i}`), ...Array.from({ length: 200 }, (_, i) => `b${i}`), ...Array.from({ length: 2000 }, (_, i) => `c${i}`)];
    expect(rows().filter((r) => r !== '')).toEqual(want);
    expect(h.store.text().some((r) => / lost\]/.test(r))).toBe(false);
  });

  it('a rested screen resized wider, then narrower, and printing again keeps every row once, in order', async () => {
    const { t, h, write, rows } = term(30, 10, 10_000);
    // Rows long enough to wrap at 30 columns, so each resize reflows the live ones.
    const long = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}:${'x'.repeat(40)};`);
    const printed = [...long('a', 1500), ...long('b', 700)];
    await write(long('a', 1500).join('\r\n') + '\r\n');
    h.rest();
    expect(t.buffer.normal.length).toBe(REST_LIVE_ROWS + 10);
    h.beforeResize(80, 10);
    t.resize(80, 10);
    h.beforeResize(30, 12);
    t.resize(30, 12);
    await write(long('b', 700).join('\r\n') + '\r\n');
    h.rest();
    // Wrapped rows are pieces of one printed row: all of it, read in order, is what was printed, nothing lost or twice.
    expect(rows().join('')).toBe(printed.join(''));
    expect(h.store.text().some((r) => / lost\]/.test(r))).toBe(false);
  });

  it('does not rest while the alternate screen is up (the normal rows could not be captured first)', async () => {
    const { t, h, write } = term(40, 10, 10_000);
    await write(lines('a', 1500));
    await write('\x1b[?1049h');
    const before = t.buffer.normal.length;
    h.rest();
    expect(t.buffer.normal.length).toBe(before);
  });

  it('keeps every row in order past the live scrollback, up to the limit', async () => {
    const { t, h, write, rows } = term(40, 10, 3000);
    let out = '';
    for (let i = 0; i < 5000; i++) out += `line ${i}\r\n`;
    await write(out);
    expect(t.buffer.normal.baseY).toBeLessThanOrEqual(xtermScrollback(3000));
    expect(h.uncaptured).toBeLessThan(LIVE_SCROLLBACK + 64 + 1);
    const all = rows().filter((r) => r !== '');
    const first = Number(all[0]!.slice(5));
    expect(all).toEqual(Array.from({ length: 5000 - first }, (_, i) => `line ${first + i}`));
    expect(5000 - first).toBeGreaterThanOrEqual(3000); // nothing lost within the limit
    expect(all.join('\n')).not.toContain('lost');
  });

  it('round-trips colours, attributes, wide characters and emoji through the compact rows', async () => {
    const { h, write } = term(30, 4, 2000);
    const styled = '\x1b[1;31mbold red\x1b[0m plain \x1b[38;2;1;2;3;48;5;200mrgb\x1b[0m \x1b[3;4mit\x1b[0m 漢字😀x';
    await write(`${styled}\r\n`);
    await write(lines('filler', 800));
    h.capture(0, true);
    const back = await replay(h.store.serialize(), 30);
    const buf = back.buffer.active;
    let row = -1;
    for (let i = 0; i < buf.length; i++) if (buf.getLine(i)!.translateToString(true).startsWith('bold red')) row = i;
    const line = buf.getLine(row)!;
    expect(line.translateToString(true).trimEnd()).toBe('bold red plain rgb it 漢字😀x');
    const c = line.getCell(0)!;
    expect([!!c.isBold(), c.isFgPalette(), c.getFgColor()]).toEqual([true, true, 1]);
    const rgb = line.getCell(15)!;
    expect([rgb.isFgRGB(), rgb.getFgColor(), rgb.isBgPalette(), rgb.getBgColor()]).toEqual([true, 0x010203, true, 200]);
    expect([!!line.getCell(19)!.isItalic(), !!line.getCell(19)!.isUnderline()]).toEqual([true, true]);
    expect(line.getCell(9)!.isAttributeDefault()).toBe(true);
    expect(line.getCell(22)!.getWidth()).toBe(2); // 漢
    expect(line.getCell(26)!.getChars()).toBe('😀');
    expect(line.getCell(26 + line.getCell(26)!.getWidth())!.getChars()).toBe('x'); // the emoji's width, whatever xterm's unicode table says
  });

  it('keeps wrapped rows wrapped: replayed, a long line is one logical line again', async () => {
    const { h, write } = term(10, 3, 2000);
    const long = 'abcdefghij' + 'klmno     ' + 'pqr'; // 23 chars, with blanks at a wrap point
    await write(`${long}\r\n`);
    await write(lines('f', 700));
    h.capture(0, true);
    expect(h.store.text().slice(0, 3)).toEqual(['abcdefghij', 'klmno', 'pqr']);
    const back = await replay(h.store.serialize(), 10);
    const buf = back.buffer.active;
    expect([buf.getLine(1)!.isWrapped, buf.getLine(2)!.isWrapped, buf.getLine(3)!.isWrapped]).toEqual([true, true, false]);
    expect(buf.getLine(1)!.translateToString()).toBe('klmno     ');
    expect(buf.getLine(2)!.translateToString(true)).toBe('pqr');
  });

  it('ESC [ 3 J clears the compact history as well as xterm’s', async () => {
    const { h, write, rows } = term(20, 5, 5000);
    await write(lines('old ', 2000));
    expect(h.store.lines).toBeGreaterThan(0);
    await write('\x1b[H\x1b[2J\x1b[3Jnew\r\n');
    expect(h.store.lines).toBe(0);
    expect(rows().filter((r) => r)).toEqual(['new']);
    await write(lines('again ', 1000));
    expect(rows().filter((r) => r).slice(0, 2)).toEqual(['new', 'again 0']); // no gap reported after a clear
  });

  it('loses nothing when a resize shrinks a tall screen or narrows and reflows it', async () => {
    const { t, h, write, rows } = term(40, 1000, 5000);
    await write(lines('r', 2500));
    h.beforeResize(40, 2); // 998 screen rows pushed into the scrollback at once
    t.resize(40, 2);
    h.beforeResize(15, 2); // narrower: long rows reflow into more rows
    t.resize(15, 2);
    await write(lines('s', 10));
    const all = rows().filter((r) => r);
    expect(all.join('\n')).not.toContain('lost');
    expect(all.slice(-12)).toEqual([...lines('r', 2500).split('\r\n').slice(-3, -1), ...lines('s', 10).split('\r\n').slice(0, -1)]);
    expect(all.filter((r) => r.startsWith('r')).length).toBe(2500);
  });

  it('reports no gap when the screen is erased (ESC [ 2 J, as clear and every redraw send) with nothing trimmed', async () => {
    const { h, write, rows } = term(20, 5, 5000);
    for (let i = 0; i < 3; i++) await write(`\x1b[H\x1b[2Jframe ${i}\r\n`);
    h.capture(0, true);
    expect(rows().filter((r) => r)).toEqual(['frame 2']);
    // With history below it too: rows that scrolled before the erase are kept, once each, and no gap is said.
    await write(lines('x', 1200));
    await write('\x1b[H\x1b[2Jafter\r\n');
    await write(lines('y', 700));
    const all = rows().filter((r) => r);
    expect(all.join('\n')).not.toContain('lost');
    expect(all.filter((r) => /^x\d+$/.test(r))).toHaveLength(1200 - 4); // the screen's last four x rows were erased, not scrolled
    expect(all.filter((r) => /^y\d+$/.test(r))).toHaveLength(700);
  });

  it('records a gap as “[N lines lost]” when rows were trimmed before capture', async () => {
    const { t, h, write, rows } = term(20, 5, 5000);
    await write(lines('a', 1000));
    // Straight into xterm, past the pieces: more rows than its scrollback holds, no capture between.
    await new Promise<void>((r) => t.write(lines('b', 3000), r));
    await write('end\r\n');
    const all = rows().filter((r) => r);
    const gap = all.findIndex((r) => /lines lost/.test(r));
    const lost = Number(/\[(\d+) lines lost\]/.exec(all[gap]!)![1]);
    const sent = [...lines('a', 1000).split('\r\n'), ...lines('b', 3000).split('\r\n')].filter((r) => r);
    const before = sent.indexOf(all[gap - 1]!);
    expect(before).toBeGreaterThan(0);
    expect(all[gap + 1]).toBe(sent[before + 1 + lost]); // the count is exact
    expect(all[all.length - 1]).toBe('end');
    expect(h.store.text().length + h.uncaptured).toBeGreaterThan(0);
  });
});
