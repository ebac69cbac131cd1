// kill -9 of a state-keeping server (the `pane` bin, `pane serve --state`) at random
// points under a stream of layout changes, and in the middle of a snapshot write (the
// test-only fault hook kills it between writing the temp file and renaming it): each
// restart brings back a state the server had acknowledged, never an older one than
// what it had a good while before the kill, and never an empty start.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/index';
import { ensureBuilt } from '../e2e/shell';
import { home, startDaemon, until, type Home } from './helpers';

let h: Home | undefined;
const procs: ChildProcess[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  h?.cleanup();
});



type View = { layout: unknown; focused: number | null; zoomed: number | null; floating: unknown[] };
const viewOf = (s: View): string => JSON.stringify({ layout: s.layout, focused: s.focused, zoomed: s.zoomed, floating: s.floating });

/** One random structural change; returns once the server has acknowledged it. */
async function change(c: Connection, rnd: () => number): Promise<void> {
  const { panes } = await c.call('pane/list', {});
  const pick = panes[Math.floor(rnd() * panes.length)]!.n;
  const r = rnd();
  if (panes.length < 3 || (r < 0.3 && panes.length < 6)) await c.call('pane/split', { pane: pick, direction: rnd() < 0.5 ? 'horizontal' : 'vertical', ratio: 20 + Math.floor(rnd() * 60) });
  else if (r < 0.45) await c.call('pane/close', { pane: pick });
  else if (r < 0.65) await c.call('pane/focus', { pane: pick });
  else if (r < 0.75) await c.call('pane/zoom', { pane: pick });
  else if (r < 0.85) await c.call('pane/float', { pane: pick });
  else await c.call('pane/ratio', { pane: pick, direction: rnd() < 0.5 ? 'horizontal' : 'vertical', ratio: 20 + Math.floor(rnd() * 60) }).catch(() => undefined);
}

/** A seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function killed(p: ChildProcess): Promise<NodeJS.Signals | null> {
  return p.exitCode !== null || p.signalCode !== null ? Promise.resolve(p.signalCode) : new Promise((r) => p.once('exit', (_c, sig) => r(sig)));
}

/** Journal writes may trail the acknowledgement by this much (an fdatasync on a busy disk). */
const JOURNAL_LAG_MS = 1_500;

describe('a state-keeping server killed with -9', () => {
  it('comes back to an acknowledged, recent state after kills at random points under a stream of layout changes', async () => {
    ensureBuilt();
    h = home();
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
    const rnd = rng(seed);
    for (let round = 0; round < 3; round++) {
      const d = await startDaemon(h, procs, 'crash-test');
      const first = await d.c.call('session/get', {});
      const seen: { at: number; view: string }[] = [{ at: Date.now(), view: viewOf(first) }];
      // Every state the server reaches is put on the wire as an event before the journal (JOURNAL_BATCH_MS later)
      // can hold it, so a kill between the journal write and an acknowledgement still finds that state here.
      let now: View = first;
      const record = (v: View): void => void seen.push({ at: Date.now(), view: viewOf((now = v)) });
      d.c.events.on('layout/changed', (e) => e.session.id === first.id && record(e.session));
      d.c.events.on('focus/changed', (e) => e.session === first.id && e.context === undefined && record({ ...now, focused: e.focused, zoomed: e.zoomed }));
      await d.c.call('events/subscribe', { families: ['layout', 'focus'] });
      if (round > 0) expect(seen[0]!.view, `seed ${seed}: round ${round} restarted from the state before the kill`).toBe(lastKept);
      const killAt = Date.now() + 400 + Math.floor(rnd() * 1200);
      let stop = false;
      const stream = (async () => {
        while (!stop) {
          try {
            await change(d.c, rnd);
            seen.push({ at: Date.now(), view: viewOf(await d.c.call('session/get', {})) });
          } catch {
            return; // the kill
          }
        }
      })();
      while (Date.now() < killAt) await new Promise((r) => setTimeout(r, 10));
      const killedAt = Date.now();
      d.proc.kill('SIGKILL');
      stop = true;
      await stream;
      expect(await killed(d.proc)).toBe('SIGKILL');
      d.c.close();

      const back = await startDaemon(h, procs, 'crash-test');
      const restored = viewOf(await back.c.call('session/get', {}));
      const i = seen.map((s) => s.view).lastIndexOf(restored);
      const safe = seen.filter((s) => s.at <= killedAt - JOURNAL_LAG_MS).length - 1;
      expect(i, `seed ${seed}, round ${round}: the restored state is one the server acknowledged (of ${seen.length})`).toBeGreaterThanOrEqual(0);
      expect(i, `seed ${seed}, round ${round}: no older than the state acknowledged ${JOURNAL_LAG_MS} ms before the kill`).toBeGreaterThanOrEqual(safe);
      lastKept = restored;
      // Next round starts from here: stop it cleanly (its last snapshot is this same state).
      await back.c.call('server/stop', {}).catch(() => undefined);
      await killed(back.proc);
    }
  }, 180_000);

  it('survives a kill between writing a snapshot and renaming it: the temp file is ignored, the journal replayed', async () => {
    ensureBuilt();
    h = home();
    const d = await startDaemon(h, procs, 'crash-test', { PANE_TEST_FAULT: 'snapshot-before-rename' });
    const rnd = rng(7);
    for (let k = 0; k < 12; k++) await change(d.c, rnd);
    const want = viewOf(await d.c.call('session/get', {}));
    const panesWanted = (await d.c.call('pane/list', {})).panes.map((p) => p.n).sort();
    await d.c.call('state/save', {}).catch(() => undefined);
    expect(await killed(d.proc)).toBe('SIGKILL');
    expect(fs.readdirSync(h.stateDir).some((f) => f.endsWith('.tmp')), 'the half-done snapshot is left as a temp file').toBe(true);

    const back = await startDaemon(h, procs, 'crash-test');
    expect(viewOf(await back.c.call('session/get', {}))).toBe(want);
    expect((await back.c.call('pane/list', {})).panes.map((p) => p.n).sort()).toEqual(panesWanted);
    expect(fs.readdirSync(h.stateDir).some((f) => f.endsWith('.tmp')), 'leftover temp files are cleared at start').toBe(false);
    await back.c.call('server/stop', {}).catch(() => undefined);
    await killed(back.proc);
  }, 120_000);
});

let lastKept = '';
