import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import * as headless from '@xterm/headless';
import { afterAll, describe, expect, it } from 'vitest';
import { ScreenHost } from './screenHost';

const hosts: ScreenHost[] = [];
function host(o: ConstructorParameters<typeof ScreenHost>[0] = {}): ScreenHost {
  const h = new ScreenHost(o);
  hosts.push(h);
  return h;
}
afterAll(() => hosts.forEach((h) => h.dispose()));

const enc = (s: string) => new TextEncoder().encode(s);

describe('ScreenHost', () => {
  it('snapshots a pane at exactly the offset of the bytes it was sent', async () => {
    const h = host();
    h.open(1, { cols: 20, rows: 5 });
    h.write(1, enc('hello   \r\nworld\r\n\r\n'));
    const a = await h.snapshot(1);
    expect(a.offset).toBe(enc('hello   \r\nworld\r\n\r\n').byteLength);
    expect(a.text).toBe('hello\nworld'); // trailing blanks and empty lines gone
    expect(a).toMatchObject({ pane: 1, cols: 20, rows: 5, cursor: { x: 0, y: 3 } });
    h.write(1, enc('more'));
    const b = await h.snapshot(1);
    expect(b.offset).toBe(a.offset + 4);
    expect(b.text).toBe('hello\nworld\n\nmore'); // the cursor sat on the fourth row
  });

  it('keeps panes apart and counts offsets from where a pane starts', async () => {
    const h = host();
    h.open(1, { cols: 10, rows: 3 });
    h.open(2, { cols: 10, rows: 3, offset: 1000 });
    h.write(1, enc('one'));
    h.write(2, enc('two'));
    h.write(2, enc('!'), 2000); // a gap: the stream continues at 2000
    const [a, b] = await Promise.all([h.snapshot(1), h.snapshot(2)]);
    expect([a.text, a.offset]).toEqual(['one', 3]);
    expect([b.text, b.offset]).toEqual(['two!', 2001]);
  });

  it('reports title changes and bells per pane', async () => {
    const h = host();
    const titles: string[] = [];
    let bells = 0;
    h.open(3, { cols: 10, rows: 3, onTitle: (t) => titles.push(t), onBell: () => bells++ });
    h.write(3, enc('\x1b]0;first\x07x\x1b]2;second\x1b\\\x07'));
    const s = await h.snapshot(3);
    await until(() => titles.includes('second') && bells > 0);
    expect(s.title).toBe('second');
    expect(titles[titles.length - 1]).toBe('second');
    expect(bells).toBe(1);
  });

  it('resizes a pane’s screen', async () => {
    const h = host();
    h.open(4, { cols: 10, rows: 3 });
    h.resize(4, 33, 7);
    expect(await h.snapshot(4)).toMatchObject({ cols: 33, rows: 7 });
  });

  it('serializes a screen that replays into the same text', async () => {
    const h = host();
    h.open(5, { cols: 30, rows: 6 });
    h.write(5, enc('\x1b[1;31mred\x1b[0m plain\r\n\x1b[42mgreen bg\x1b[0m\r\nline3'));
    const s = await h.snapshot(5);
    const xterm = (headless as unknown as { default?: typeof headless }).default ?? headless;
    const t = new xterm.Terminal({ cols: 30, rows: 6, allowProposedApi: true });
    await new Promise<void>((r) => t.write(s.serialized, r));
    const lines: string[] = [];
    for (let i = 0; i < t.buffer.active.length; i++) lines.push(t.buffer.active.getLine(i)!.translateToString(true));
    expect(lines.join('\n').trimEnd()).toBe(s.text);
    expect(s.serialized).toContain('\x1b[');
    t.dispose();
  });

  it('snapshots a full-screen program made narrower as its screen shows it (no forced-wrap dashes, nothing past the edge)', async () => {
    // vim in a pane that a split made narrower: xterm keeps the alternate screen's rows at their old width.
    const h = host();
    h.open(6, { cols: 80, rows: 4 });
    h.write(6, enc('\x1b[?1049h\x1b[1;61Hstale'));
    await h.snapshot(6); // drawn at 80 columns before the split
    h.resize(6, 40, 4);
    h.write(6, enc(`\x1b[H${'A'.repeat(60)}\r\nnext`));
    const s = await h.snapshot(6);
    expect(s.text).toBe(`${'A'.repeat(40)}\n${'A'.repeat(20)}\nnext`);
    expect(s.serialized).not.toContain('--');
    const xterm = (headless as unknown as { default?: typeof headless }).default ?? headless;
    const t = new xterm.Terminal({ cols: 40, rows: 4, allowProposedApi: true });
    await new Promise<void>((r) => t.write(s.serialized, r));
    const rows = Array.from({ length: 4 }, (_, i) => t.buffer.active.getLine(i)!.translateToString(true));
    expect(rows).toEqual(['A'.repeat(40), 'A'.repeat(20), 'next', '']);
    expect(t.buffer.active.getLine(1)!.isWrapped).toBe(true);
    t.dispose();
  });

  it('leaves out old scrollback so a snapshot fits one reply frame', async () => {
    const h = host({ snapshotBytes: 200_000 });
    h.open(8, { cols: 100, rows: 10 });
    const colour = (i: number) => `\x1b[3${i % 8};4${(i + 3) % 8}m${String(i).padStart(5, '0')}${'#'.repeat(80)}\x1b[0m\r\n`;
    for (let i = 0; i < 5_000; i++) h.write(8, enc(colour(i)));
    const s = await h.snapshot(8);
    const size = Buffer.byteLength(JSON.stringify(s.text)) + Buffer.byteLength(JSON.stringify(s.serialized));
    expect(size).toBeLessThanOrEqual(200_000);
    expect(s.text.split('\n').pop()).toMatch(/^04999#+$/); // the newest lines stay
    expect(s.text).not.toContain('00000#'); // the oldest went
    expect(s.serialized).toContain('04999');
    // What stays is one unbroken run of the newest rows, compact history and live rows joined in order.
    const kept = s.text.split('\n').flatMap((l) => (/^(\d{5})#+$/.exec(l) ? [Number(l.slice(0, 5))] : []));
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 5_000 - kept.length + i));
    // The text alone has twice the room: more of the history.
    const t = await h.snapshot(8, { textOnly: true });
    expect(t.serialized).toBe('');
    expect(t.text.split('\n').length).toBeGreaterThan(s.text.split('\n').length);
  });

  it('takes a character cut between writes, at its 256-byte pieces, or at xterm’s own 128 KiB parses, whole (decision 054)', async () => {
    for (const scrollback of [10_000, 100]) {
      // 10,000 lines: a history, written in 256-byte pieces; 100: none, written in pieces just under xterm's parse size.
      const h = host({ scrollback });
      h.open(1, { cols: 60, rows: 5 });
      h.write(1, new Uint8Array([0x41, 0xe2, 0x80]));
      h.write(1, new Uint8Array([0x94, 0x42, 0x0d, 0x0a]));
      expect((await h.snapshot(1)).text).toBe('A—B');
      // 1,100 lines of 40 dashes (122 bytes each) in one write, 134,200 bytes: xterm's own cut at
      // 131,072 falls inside a dash of line 1,075, within the last 100 rows a snapshot keeps.
      const line = `${'—'.repeat(40)}\r\n`;
      h.write(1, enc(line.repeat(1_100)));
      const rows = (await h.snapshot(1)).text.split('\n').slice(1);
      expect(rows.length).toBeGreaterThan(4);
      expect(rows.filter((r) => r !== '—'.repeat(40)), `scrollback ${scrollback}`).toEqual([]);
    }
  });

  it('keeps a cursor the program hid hidden in a snapshot (the serialize addon leaves DECTCEM out)', async () => {
    const h = host();
    h.open(1, { cols: 20, rows: 5 });
    h.write(1, enc('\x1b[?1049h\x1b[?25lfull screen'));
    expect((await h.snapshot(1)).serialized.endsWith('\x1b[?25l')).toBe(true);
    h.write(1, enc('\x1b[?25h'));
    expect((await h.snapshot(1)).serialized).not.toContain('\x1b[?25l');
    // Hidden again, then a full reset (RIS) shows it.
    h.write(1, enc('\x1b[?25l'));
    expect((await h.snapshot(1)).serialized.endsWith('\x1b[?25l')).toBe(true);
    h.write(1, enc('\x1bc'));
    expect((await h.snapshot(1)).serialized).not.toContain('\x1b[?25l');
  });

  it('keeps the mouse report form the program asked for in a snapshot (the serialize addon writes the mode, not the form)', async () => {
    const h = host();
    h.open(1, { cols: 20, rows: 5 });
    h.write(1, enc('\x1b[?1002h\x1b[?1006hvim'));
    const sgr = (await h.snapshot(1)).serialized;
    expect(sgr).toContain('\x1b[?1002h');
    expect(sgr.endsWith('\x1b[?1006h')).toBe(true);
    // Reset: X10's form again, nothing added; a full reset forgets it too.
    h.write(1, enc('\x1b[?1006l'));
    expect((await h.snapshot(1)).serialized).not.toContain('\x1b[?1006h');
    h.write(1, enc('\x1b[?1015h'));
    expect((await h.snapshot(1)).serialized.endsWith('\x1b[?1015h')).toBe(true);
    h.write(1, enc('\x1bc'));
    expect((await h.snapshot(1)).serialized).not.toContain('\x1b[?1015h');
  });

  it('keeps the scroll region the program set in a snapshot, so later lines scroll only it (a progress bar on the last row stays)', async () => {
    const h = host();
    h.open(1, { cols: 30, rows: 6 });
    // apt's way: rows 1-5 scroll, row 6 holds the bar; the cursor ends in the region.
    h.write(1, enc('\x1b[1;5r\x1b[6;1HProgress: [ 40%]\x1b[5;1Hline-1\r\nline-2'));
    const snap = await h.snapshot(1);
    expect(snap.serialized).toContain('\x1b[1;5r');
    const xterm = (headless as unknown as { default?: typeof headless }).default ?? headless;
    const late = new xterm.Terminal({ cols: 30, rows: 6, allowProposedApi: true });
    await new Promise<void>((r) => late.write(snap.serialized, r));
    expect({ x: late.buffer.active.cursorX, y: late.buffer.active.cursorY }).toEqual(snap.cursor);
    // Three more lines: in both the region scrolls and the bar stays on row 6.
    const more = '\r\nline-3\r\nline-4\r\nline-5';
    h.write(1, enc(more));
    await new Promise<void>((r) => late.write(more, r));
    const rows = (t: headless.Terminal) => [...Array(6).keys()].map((y) => t.buffer.active.getLine(t.buffer.active.baseY + y)!.translateToString(true));
    expect(rows(late)[5]).toBe('Progress: [ 40%]');
    expect(rows(late).join('\n')).toBe((await h.snapshot(1)).text.split('\n').slice(-6).join('\n'));
    // The whole screen again (the region reset): nothing added.
    h.write(1, enc('\x1b[r'));
    expect((await h.snapshot(1)).serialized).not.toMatch(/\x1b\[\d+;\d+r/);
  });

  it('gives a view opened mid-way what it needs to draw the rest as the daemon does: line drawing, origin mode in a region, a saved cursor, tab stops, LNM', async () => {
    const xterm = (headless as unknown as { default?: typeof headless }).default ?? headless;
    // [what the program did before the view opened, what it does after]
    const cases: Record<string, [string, string]> = {
      'DEC line drawing in G0': ['\x1b(0lqq', 'qk\x1b(B ok'],
      'DEC line drawing in G1, shifted in': ['\x1b)0\x0elqq', 'qk\x0f ok'],
      'origin mode in a region': ['\x1b[3;8r\x1b[?6h\x1b[2;1Hin', '\x1b[1;1HX'],
      'a cursor saved (DECSC)': ['\x1b[5;5H\x1b7\x1b[1;1H', '\x1b8S'],
      'tab stops of its own (TBC, HTS)': ['\x1b[3g\x1b[1;5H\x1bH\x1b[1;13H\x1bH\x1b[3;1H', 'a\tb\tc\td'],
      'tab stops cleared at one column': ['\x1b[1;9H\x1b[g\x1b[4;1H', 'a\tb\tc'],
      'LNM: a line feed returns the carriage': ['\x1b[20hx', '\ny\nz'],
    };
    let pane = 20;
    for (const [name, [before, after]] of Object.entries(cases)) {
      const h = host();
      pane++;
      h.open(pane, { cols: 30, rows: 10 });
      h.write(pane, enc(`hello\r\n${before}`));
      const late = new xterm.Terminal({ cols: 30, rows: 10, allowProposedApi: true });
      const snap = await h.snapshot(pane);
      await new Promise<void>((r) => late.write(snap.serialized, r));
      h.write(pane, enc(after));
      await new Promise<void>((r) => late.write(after, r));
      const rows = [...Array(10).keys()].map((y) => late.buffer.active.getLine(late.buffer.active.baseY + y)!.translateToString(true));
      expect.soft(rows.join('\n').trimEnd(), name).toBe((await h.snapshot(pane)).text.split('\n').slice(-10).join('\n').trimEnd());
    }
  });

  it('includes at most the asked scrollback lines in a snapshot', async () => {
    const h = host();
    h.open(9, { cols: 20, rows: 4 });
    for (let i = 1; i <= 100; i++) h.write(9, enc(`row-${i}\r\n`));
    const full = await h.snapshot(9);
    const capped = await h.snapshot(9, { history: 10 });
    expect(full.text.split('\n')[0]).toBe('row-1');
    expect(capped.text.split('\n')[0]).toBe('row-88'); // 10 lines of history above the 4-row screen (3 printed + cursor row)
    expect(capped.text.split('\n').pop()).toBe('row-100');
    expect(capped.offset).toBe(full.offset);
    expect(capped.serialized).not.toContain('row-87');
  });

  it('drains its backlog to zero as the worker parses', async () => {
    const h = host();
    const seen: number[] = [];
    h.open(6, { cols: 80, rows: 24, onBacklog: (b) => seen.push(b) });
    for (let i = 0; i < 20; i++) h.write(6, enc('x'.repeat(10_000) + '\r\n'));
    expect(h.backlog(6)).toBeGreaterThan(0);
    await h.snapshot(6);
    await until(() => h.backlog(6) === 0);
    expect(seen[seen.length - 1]).toBe(0);
  });

  it('collects the worker’s isolate when asked, and says what that freed', async () => {
    const h = host();
    expect(await h.collect()).toBeNull(); // no worker yet: nothing to collect
    h.open(8, { cols: 100, rows: 40 });
    // Three wide panes, filled past xterm's live scrollback, then closed: their rows (12 bytes a cell, ~5 MB a pane)
    // are garbage now, and nothing runs between the close and the collection to make V8 collect them on its own.
    // (Parse garbage alone was not a certain figure: a loaded worker sometimes collected it first.)
    const block = (i: number) => Array.from({ length: 100 }, (_, k) => `${i}-${k} the quick brown fox jumps over the lazy dog`).join('\r\n') + '\r\n';
    h.write(8, enc(block(7)));
    const wide = [9, 10, 11];
    for (const p of wide) {
      h.open(p, { cols: 400, rows: 40 });
      for (let i = 0; i < 12; i++) h.write(p, enc(block(i)));
      expect((await h.snapshot(p)).text).toContain('11-99 the quick brown fox'); // parsed, all of it
    }
    for (const p of wide) h.close(p);
    const r = (await h.collect())!;
    expect(r.usedAfter).toBeLessThan(r.usedBefore - (10 << 20)); // ~20 MB: 15 of rows, the rest parse garbage
    expect((await h.snapshot(8)).text).toContain('7-99 the quick brown fox'); // what was live stays
    // Disposed with a collection asked: it answers null, it does not hang.
    const pending = h.collect();
    h.dispose();
    expect(await pending).toBeNull();
  });

  it('collects its own isolate once per parseCollectBytes parsed, and not at all when that is 0', async () => {
    const line = (i: number) => `${String(i).padStart(5, '0')} the quick brown fox jumps over the lazy dog 0123456789\r\n`;
    const chunk = enc(Array.from({ length: 1000 }, (_, i) => line(i)).join('')); // ~66 KB
    const every = host({ parseCollectBytes: 1 << 20 });
    const never = host({ parseCollectBytes: 0 });
    for (const h of [every, never]) {
      h.open(1, { cols: 100, rows: 40 });
      for (let i = 0; i < 64; i++) h.write(1, chunk); // ~4.2 MB
      await h.snapshot(1);
    }
    const n = Math.floor((64 * chunk.byteLength) / (1 << 20));
    expect((await every.collect())!.parseCollections).toBe(n);
    expect((await never.collect())!.parseCollections).toBe(0);
  });

  it('fails snapshots of unknown and closed panes with a clear error', async () => {
    const h = host();
    await expect(h.snapshot(99)).rejects.toThrow(/pane 99 has no screen/);
    h.open(7, { cols: 10, rows: 3 });
    const p = h.snapshot(7);
    h.close(7);
    await expect(p).rejects.toThrow(/closed/);
  });

  it('runs the worker as bundled by the build (dist/screenWorker.mjs)', async () => {
    // Same options as scripts/build.mjs: ESM, node20, a require() banner for bundled CommonJS.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pane-worker-test-'));
    try {
      const out = path.join(dir, 'screenWorker.mjs');
      buildSync({
        entryPoints: [fileURLToPath(new URL('./screenWorker.ts', import.meta.url))],
        outfile: out,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'esm',
        external: ['@lydell/node-pty', 'electron'],
        banner: { js: "import { createRequire as __paneCreateRequire } from 'node:module'; const require = __paneCreateRequire(import.meta.url);" },
        logLevel: 'silent',
      });
      const h = host({ workerPath: out });
      h.open(1, { cols: 10, rows: 2 });
      h.write(1, enc('bundled'));
      expect((await h.snapshot(1)).text).toBe('bundled');
      h.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails snapshots with the cause when the worker cannot start, and reports backlogs empty', async () => {
    const h = host({ workerPath: '/nonexistent/screenWorker.mjs' });
    const backlogs: number[] = [];
    h.open(1, { cols: 10, rows: 2, onBacklog: (b) => backlogs.push(b) });
    h.write(1, enc('lost'));
    await expect(h.snapshot(1)).rejects.toThrow(/screen worker failed/);
    expect(await h.collect()).toBeNull(); // nothing to collect, and no wait
    expect(backlogs).toContain(0);
    expect(h.backlog(1)).toBe(0);
  });
});

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
