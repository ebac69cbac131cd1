// Compact scrollback history end to end (issue 14): 10,000 lines printed through a
// real PTY come back whole, in order and in colour; a durable save writes each full
// history block once and later generations name it again; a restart restores it all.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { home, until, type Home } from './helpers';

let h: Home | undefined;
afterEach(() => h?.cleanup());

const LINES = 10_000;
/** Numbered lines with a coloured word, then stay alive without printing more. */
const PRINT = { program: 'sh', args: ['-c', `seq -f '\x1b[32mok\x1b[0m step %g done' 1 ${LINES}; exec sleep 600`] };

const numbered = (text: string) => text.split('\n').flatMap((l) => (/^ok step (\d+) done$/.exec(l) ? [Number(/\d+/.exec(l)![0])] : []));

describe('compact scrollback history', () => {
  it('serves 10,000 lines printed through a PTY whole, in order and in colour', async () => {
    h = home();
    const a = await h.start();
    const c = await a.connect();
    const { pane } = await c.call('pane/split', { pane: a.server.pane().n, launch: PRINT });
    const s = await until('all lines parsed', async () => {
      const r = await c.call('pty/screen', { pane });
      return r.text.includes(`ok step ${LINES} done`) ? r : null;
    }, 60_000);
    expect(numbered(s.text)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    // The serialized snapshot (what a late attacher's xterm replays) has every line with its colour.
    const coloured = s.serialized.split(/\r\n|\n/).filter((l) => /\x1b\[[0-9;]*32m\s*ok/.test(l) || /\x1b\[0;32mok/.test(l));
    expect(coloured.length).toBeGreaterThanOrEqual(LINES - 5);
    expect(s.serialized).toContain('\x1b[0;32mok\x1b[0m step 1 done'); // the oldest, from the compact part
    expect(s.serialized.indexOf('step 1 done')).toBeLessThan(s.serialized.indexOf(`step ${LINES} done`));
    await a.stop();
  }, 120_000);

  it('saves full blocks once, names them again in later generations, and restores all of it', async () => {
    h = home();
    const a = await h.start();
    const c = await a.connect();
    const { pane } = await c.call('pane/split', { pane: a.server.pane().n, launch: PRINT });
    await until('all lines parsed', async () => (await c.call('pty/screen', { pane })).text.includes(`ok step ${LINES} done`), 60_000);
    const first = await c.call('state/save', {});
    const state = (gen: number) => JSON.parse(fs.readFileSync(path.join(h!.stateDir, `snap-${String(gen).padStart(6, '0')}.json`), 'utf8').split('\n')[1]!) as { panes: { n: number; scrollback?: { blocks?: string[] } }[] };
    const refs = (gen: number) => state(gen).panes.find((p) => p.n === pane)!.scrollback!.blocks!;
    const blockFile = (f: string) => path.join(h!.stateDir, 'scrollback', f);
    const stamps = () => refs(first.gen).map((f) => fs.statSync(blockFile(f)).mtimeMs);
    const before = stamps();
    const second = await c.call('state/save', {});
    // The second generation writes its state and the live part, not the 10,000 rows again.
    expect(stamps()).toEqual(before);
    expect(second.wrote!).toBeLessThan(first.wrote!);
    expect(refs(second.gen).length).toBeGreaterThan(20);
    expect(refs(second.gen)).toEqual(refs(first.gen));
    // Nothing printed in between: the second generation names the first one's file for the newest rows too.
    const fileOf = (gen: number) => (state(gen).panes.find((p) => p.n === pane)!.scrollback as { file: string }).file;
    expect(fileOf(second.gen)).toBe(fileOf(first.gen));
    await c.call('pane/input', { pane, data: 'more\n' }).catch(() => undefined);
    await until('the echo parsed', async () => (await c.call('pty/screen', { pane })).text.includes('more'));
    const third = await c.call('state/save', {});
    // Output since: written anew, by this save (`gN-`) or by the history flush that ran between
    // the echo and the save (`l<N-1>-`), which the save then names instead of writing it again.
    const newest = fileOf(third.gen);
    expect(newest).not.toBe(fileOf(second.gen));
    expect(newest).toMatch(new RegExp(`^(g${third.gen}-|l${third.gen - 1}-)`));
    expect(fs.existsSync(blockFile(newest))).toBe(true);
    for (const f of refs(second.gen)) expect(fs.existsSync(blockFile(f))).toBe(true);
    await a.stop();

    const b = await h.start();
    const c2 = await b.connect();
    const text = await until('history restored above the label', async () => {
      const t = (await c2.call('pty/screen', { pane })).text;
      return /history saved/.test(t) ? t : '';
    }, 60_000);
    expect(numbered(text)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    expect(text.indexOf(`ok step ${LINES} done`)).toBeLessThan(text.indexOf('history saved'));
    // The newest file holds what was typed after the second save.
    expect(text.indexOf('more')).toBeGreaterThan(text.indexOf(`ok step ${LINES} done`));
    expect(text.indexOf('more')).toBeLessThan(text.indexOf('history saved'));
    await b.stop();
  }, 180_000);

  it('keeps as many lines as durability.json saves, above the 10,000 a screen model keeps by default', async () => {
    h = home();
    fs.writeFileSync(path.join(h.dir, 'config', 'durability.json'), JSON.stringify({ scrollbackLines: 15_000 }));
    const a = await h.start();
    const c = await a.connect();
    const MORE = 14_000;
    const { pane } = await c.call('pane/split', { pane: a.server.pane().n, launch: { program: 'sh', args: ['-c', `seq -f 'ok step %g done' 1 ${MORE}; exec sleep 600`] } });
    const s = await until('all lines parsed', async () => {
      const r = await c.call('pty/screen', { pane });
      return r.text.includes(`ok step ${MORE} done`) ? r : null;
    }, 60_000);
    expect(numbered(s.text)).toEqual(Array.from({ length: MORE }, (_, i) => i + 1));
    await a.stop();
  }, 120_000);

  it('restores a colour history larger than the screen model lag bound whole (over 1.5 MiB replayed)', async () => {
    h = home();
    const a = await h.start();
    const c = await a.connect();
    // 10,000 lines of twelve coloured words each: ~2 MiB as a terminal replays them.
    const awk = `awk 'BEGIN{for(i=1;i<=${LINES};i++){l="";for(j=0;j<12;j++)l=l sprintf("\\033[3%dmw%d\\033[0m ",j%7+1,j);printf "%sline %d end\\n",l,i}}'`;
    const { pane } = await c.call('pane/split', { pane: a.server.pane().n, launch: { program: 'sh', args: ['-c', `${awk}; exec sleep 600`] } });
    const lineNumbers = (text: string) => text.split('\n').flatMap((l) => (/ line (\d+) end$/.exec(l) ? [Number(/ line (\d+) end$/.exec(l)![1])] : []));
    const all = Array.from({ length: LINES }, (_, i) => i + 1);
    await until('all lines parsed', async () => (await c.call('pty/screen', { pane })).text.includes(`line ${LINES} end`), 60_000);
    // Its escape sequences and text do not fit one reply together; the text alone (pane screen, the body) is whole.
    expect(lineNumbers((await c.call('pty/screen', { pane, form: 'text' })).text)).toEqual(all);
    const savedLines = (gen: number) => {
      const st = JSON.parse(fs.readFileSync(path.join(h!.stateDir, `snap-${String(gen).padStart(6, '0')}.json`), 'utf8').split('\n')[1]!) as { panes: { n: number; scrollback?: { lines: number } }[] };
      return st.panes.find((p) => p.n === pane)!.scrollback!.lines;
    };
    const before = savedLines((await c.call('state/save', {})).gen);
    expect(before).toBeGreaterThanOrEqual(LINES);
    await a.stop();

    // Restored, the screen model holds all of it again: its text, and saved anew as many lines.
    const b = await h.start();
    const c2 = await b.connect();
    const text = await until('history restored above the label', async () => {
      const t = (await c2.call('pty/screen', { pane, form: 'text' })).text;
      return /history saved/.test(t) ? t : '';
    }, 60_000);
    expect(lineNumbers(text)).toEqual(all);
    expect(savedLines((await c2.call('state/save', {})).gen)).toBeGreaterThanOrEqual(before);
    await b.stop();
  }, 180_000);
});
