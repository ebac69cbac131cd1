// The config watch on a real file system: a change is seen through the kernel's
// watch (the safety poll is set far beyond each test, so only an event can have
// told), in the ways files really change — written in place, saved by rename as
// editors do, removed, and inside directories that did not exist when watching
// began — and a target that cannot be watched falls back to the poll.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchPlan, watchTargets, type WatchOptions, type WatchTarget } from './targetWatch';

/** Far beyond any test here: a change seen within a test was seen by a watch (or the fallback poll where set). */
const NO_SAFETY_POLL: WatchOptions = { safetyMs: 3_600_000 };
/** How long a test waits for a change to be told before it fails. */
const TOLD_WITHIN_MS = 3_000;

let dir: string;
const stops: (() => void)[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-watch-'));
});
afterEach(() => {
  for (const s of stops.splice(0)) s();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Watches `targets`; `told()` resolves at the next change told (or rejects after TOLD_WITHIN_MS), `count` is how many so far. */
function watching(targets: WatchTarget[], o: WatchOptions = NO_SAFETY_POLL) {
  const w = { count: 0, waiters: [] as (() => void)[] };
  stops.push(
    watchTargets(
      targets,
      () => {
        w.count++;
        for (const f of w.waiters.splice(0)) f();
      },
      o,
    ),
  );
  const told = () =>
    new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no change told within ${TOLD_WITHIN_MS} ms`)), TOLD_WITHIN_MS);
      w.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  return { w, told };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchTargets', () => {
  it('tells a file written in place, saved by rename, and removed', async () => {
    const file = path.join(dir, 'keymap.json');
    fs.writeFileSync(file, '{}');
    const { w, told } = watching([{ path: file, kind: 'file' }]);
    let next = told();
    fs.writeFileSync(file, '{"bindings":[]}');
    await next;
    // An editor's save: a temporary beside it, renamed over it.
    next = told();
    fs.writeFileSync(path.join(dir, '.keymap.json.swp'), '{"bindings":[1]}');
    fs.renameSync(path.join(dir, '.keymap.json.swp'), file);
    await next;
    next = told();
    fs.rmSync(file);
    await next;
    expect(w.count).toBe(3);
  });

  it('says nothing of other files in the same directory', async () => {
    const file = path.join(dir, 'keymap.json');
    fs.writeFileSync(file, '{}');
    const { w } = watching([{ path: file, kind: 'file' }]);
    fs.writeFileSync(path.join(dir, 'settings.json'), '{}');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    await sleep(300);
    expect(w.count).toBe(0);
  });

  it('follows a directory made after watching began, and the files then put in it', async () => {
    const hosts = path.join(dir, 'config', 'pane', 'hosts');
    const { w, told } = watching([{ path: hosts, kind: 'dir' }]);
    expect([...watchPlan({ path: hosts, kind: 'dir' }).keys()]).toEqual([dir]);
    // mkdir -p: the first directory made is told only as far as it moves the watch (no host file yet).
    fs.mkdirSync(hosts, { recursive: true });
    await sleep(300);
    expect(w.count).toBe(1); // '' (absent) → 'empty': the folder is there now
    let next = told();
    fs.writeFileSync(path.join(hosts, 'box.json'), '{"how":{"via":"command","argv":["true"]}}');
    await next;
    // Edited later, through the watch that moved down to the directory itself.
    next = told();
    fs.appendFileSync(path.join(hosts, 'box.json'), ' ');
    await next;
    // The whole folder removed, and made again with a file in it.
    next = told();
    fs.rmSync(path.join(dir, 'config'), { recursive: true });
    await next;
    next = told();
    fs.mkdirSync(hosts, { recursive: true });
    fs.writeFileSync(path.join(hosts, 'lab.json'), '{}');
    await next;
    await sleep(200);
    expect(fs.readdirSync(hosts)).toEqual(['lab.json']);
  });

  it('polls a target no watch can be set on, and watches none then', async () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{}');
    const refused: typeof fs.watch = (() => {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    }) as never;
    const { told } = watching([{ path: file, kind: 'file' }], { ...NO_SAFETY_POLL, watch: refused, pollMs: 50 });
    const next = told();
    fs.writeFileSync(file, '{"theme":"light"}');
    await next;
  });

  it('makes no timer of its own while nothing changes', async () => {
    const file = path.join(dir, 'keymap.json');
    fs.writeFileSync(file, '{}');
    let stats = 0;
    const { w } = watching([{ path: file, kind: 'file' }]);
    // The fingerprint reads the file: counted through statSync over the quiet spell.
    const real = fs.statSync;
    (fs as { statSync: typeof fs.statSync }).statSync = ((...a: Parameters<typeof fs.statSync>) => {
      stats++;
      return real(...a);
    }) as typeof fs.statSync;
    try {
      await sleep(1_000); // two and a half of the old poll's intervals
    } finally {
      (fs as { statSync: typeof fs.statSync }).statSync = real;
    }
    expect(stats).toBe(0);
    expect(w.count).toBe(0);
  });
});
