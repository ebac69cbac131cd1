// The state loader, fuzzed: thousands of damaged state directories (truncations,
// flipped bits, links, FIFOs, directories and files where the other is expected,
// absurd generation and pane numbers, records whose checksum holds but whose shape
// does not, other users' files, newer versions) fed to what the daemon runs at
// start (sweep, then load). Each time: it returns (never throws, never blocks on a
// FIFO), what it returns is a valid state with pane numbers the wire carries, and
// every good generation is still there, byte for byte, and the newest of them (or
// something newer) is what came back. Then a handful through a real `pane serve`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SAVED_PANE, STATE_VERSION, StateFileSchema, type StateFile } from '../../kits/protocol/snapshot';
import { encodeSnapshot, journalName, snapName } from '../../server/persist/generations';
import { loadState, openStore } from '../../server/persist/loader';
import { ensureBuilt, root } from '../e2e/shell';
import { makeStateDir, NOBODY, rawRecord, state, writeJournal, writeSnap } from './stateFixtures';

/**
 * Damaged directories tried, at most; and at most this long (the loop stops at
 * whichever comes first). A case costs ~3 ms on a quiet machine (3,000 in ~10 s);
 * on 2 cores shared with four other test runs, ~25 ms.
 */
const CASES = 3_000;
const BUDGET_MS = 25_000;
/** Fewest cases that must have run within the budget even on a crowded machine. */
const MIN_CASES = 300;
/** Cases per directory removed at once. */
const BATCH = 250;
const isRoot = process.getuid?.() === 0;

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-statefuzz-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A seeded generator, so a failing case can be replayed from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

interface Case {
  dir: string;
  rnd: () => number;
  pick: <T>(xs: readonly T[]) => T;
  /** Generations written whole and then damaged (so not expected back). */
  damaged: Set<number>;
  gens: number[];
  /** A file outside the state directory that links point at: must never change. */
  victim: string;
  /** The next generation number no file has yet (each damage that adds a file takes its own). */
  next: number;
}

const snapFile = (c: Case, g: number) => path.join(c.dir, snapName(g));
/** FIFOs are hard links to one made once (spawning mkfifo for each would cost most of a case's time). */
let fifoTemplate = '';
function mkfifo(f: string): void {
  if (!fifoTemplate) {
    fifoTemplate = path.join(tmp, 'fifo-template');
    spawnSync('mkfifo', [fifoTemplate]);
  }
  fs.linkSync(fifoTemplate, f);
}
function plainDir(f: string): boolean {
  try {
    return fs.lstatSync(f).isDirectory();
  } catch {
    return false;
  }
}
/** Damage is done to regular files only: the test must not itself write through a link an earlier damage planted. */
function plain(f: string): boolean {
  try {
    return fs.lstatSync(f).isFile();
  } catch {
    return false;
  }
}
function replace(f: string, how: (f: string) => void): void {
  fs.rmSync(f, { recursive: true, force: true });
  how(f);
}

/** Each damage: what it does to a directory holding good generations; it marks the generations it spoils. */
const DAMAGES: Record<string, (c: Case) => void> = {
  truncateSnap(c) {
    const g = c.pick(c.gens);
    const f = snapFile(c, g);
    if (!plain(f)) return;
    fs.truncateSync(f, Math.floor(c.rnd() * fs.statSync(f).size));
    c.damaged.add(g);
  },
  flipSnapBit(c) {
    const g = c.pick(c.gens);
    const f = snapFile(c, g);
    if (!plain(f)) return;
    const b = fs.readFileSync(f);
    const at = Math.floor(c.rnd() * b.length);
    b[at]! ^= 1 << Math.floor(c.rnd() * 8);
    fs.writeFileSync(f, b);
    c.damaged.add(g); // a flip in the header may leave it readable: then it is not expected, but may come back
  },
  flipJournalBits(c) {
    const f = path.join(c.dir, journalName(c.pick(c.gens)));
    if (!plain(f)) return;
    const b = fs.readFileSync(f);
    for (let i = 0; i < 1 + c.rnd() * 4; i++) b[Math.floor(c.rnd() * b.length)]! ^= 1 << Math.floor(c.rnd() * 8);
    fs.writeFileSync(f, b);
  },
  truncateJournal(c) {
    const f = path.join(c.dir, journalName(c.pick(c.gens)));
    if (plain(f)) fs.truncateSync(f, Math.floor(c.rnd() * fs.statSync(f).size));
  },
  snapIsLink(c) {
    const g = c.pick(c.gens);
    replace(snapFile(c, g), (f) => fs.symlinkSync(c.victim, f));
    c.damaged.add(g);
  },
  snapIsFifo(c) {
    const g = c.pick(c.gens);
    replace(snapFile(c, g), mkfifo);
    c.damaged.add(g);
  },
  snapIsDir(c) {
    const g = c.pick(c.gens);
    replace(snapFile(c, g), (f) => fs.mkdirSync(f));
    c.damaged.add(g);
  },
  newerSnapIsFifo(c) {
    mkfifo(path.join(c.dir, snapName(c.next++)));
  },
  journalIsFifo(c) {
    const f = path.join(c.dir, journalName(c.next++));
    mkfifo(f);
  },
  journalIsLink(c) {
    fs.writeFileSync(c.victim, rawRecord('{"k":"reset"}'));
    fs.symlinkSync(c.victim, path.join(c.dir, journalName(c.next++)));
  },
  tempIsDir(c) {
    fs.mkdirSync(path.join(c.dir, `.${snapName(9)}.${c.next++}.1.tmp`));
    if (plainDir(path.join(c.dir, 'scrollback'))) fs.mkdirSync(path.join(c.dir, 'scrollback', `.g1-x.gz.${c.next++}.1.tmp`));
  },
  tempIsFifo(c) {
    mkfifo(path.join(c.dir, `.${snapName(9)}.${c.next++}.2.tmp`));
  },
  tempIsLink(c) {
    fs.symlinkSync(c.victim, path.join(c.dir, `.${snapName(9)}.${c.next++}.3.tmp`));
  },
  hugeGeneration(c) {
    const name = c.pick(['99999999999999999999', '9007199254740993', '2147483648', '1e+21']);
    const from = snapFile(c, c.pick(c.gens));
    if (plain(from)) fs.copyFileSync(from, path.join(c.dir, `snap-${name}.json`));
    fs.writeFileSync(path.join(c.dir, `journal-${name}.jsonl`), rawRecord('{"k":"reset"}'));
  },
  hugePaneInSnap(c) {
    // A newer generation, checksum good, naming a pane past what the wire carries: set aside as a whole.
    const g = c.next++;
    const st = state(`g${g}`, 2);
    st.panes[1]!.n = c.pick([2 ** 53 - 1, 2 ** 32, MAX_SAVED_PANE + 1]);
    fs.writeFileSync(snapFile(c, g), encodeSnapshot(g, st));
  },
  badRecords(c) {
    // Lines whose checksum holds but whose record is not one: skipped, the rest replayed.
    const f = path.join(c.dir, journalName(Math.max(...c.gens)));
    if (!plain(f)) return;
    const bad = [
      '{"k":"pane","v":{"n":9007199254740993}}',
      '{"k":"pane-gone","n":1e300}',
      '{"k":"history","n":1,"uuid":"x","scrollback":{"file":"../../etc/passwd","savedAt":1,"lines":1,"bytes":1}}',
      '{"k":"session","v":null}',
      '{"k":"nonsense"}',
      'not json at all',
      '[1,2,3]',
      'null',
      '{"k":"extra","family":"","v":1}',
    ];
    let text = '';
    for (let i = 0; i < 1 + c.rnd() * 20; i++) text += rawRecord(c.pick(bad));
    fs.appendFileSync(f, text);
  },
  foreignSnap(c) {
    if (!isRoot) return;
    const g = c.pick(c.gens);
    if (!plain(snapFile(c, g))) return;
    fs.chownSync(snapFile(c, g), NOBODY, NOBODY);
    c.damaged.add(g);
  },
  foreignJournal(c) {
    if (!isRoot) return;
    // A newer journal by another user, naming a session of its own: never replayed.
    const g = c.next++;
    const f = writeJournal(c.dir, g, state('planted'));
    fs.chownSync(f, NOBODY, NOBODY);
  },
  newerVersion(c) {
    const g = c.next++;
    fs.writeFileSync(snapFile(c, g), encodeSnapshot(g, { ...state(`g${g}`), version: (STATE_VERSION + 1 + Math.floor(c.rnd() * 100)) as never }));
  },
  wrongGenInHeader(c) {
    // A good file under another generation's name.
    const g = c.next++;
    const from = snapFile(c, c.pick(c.gens));
    if (plain(from) && !fs.existsSync(snapFile(c, g))) fs.copyFileSync(from, snapFile(c, g));
  },
  scrollbackIsLink(c) {
    replace(path.join(c.dir, 'scrollback'), (f) => fs.symlinkSync(path.dirname(c.victim), f));
  },
  scrollbackIsFifo(c) {
    replace(path.join(c.dir, 'scrollback'), mkfifo);
  },
  scrollbackIsFile(c) {
    replace(path.join(c.dir, 'scrollback'), (f) => fs.writeFileSync(f, 'x'));
  },
  pidAndLock(c) {
    replace(path.join(c.dir, 'daemon.pid'), (f) => fs.symlinkSync(c.victim, f));
    replace(path.join(c.dir, 'daemon.lock'), mkfifo);
    replace(path.join(c.dir, 'daemon.log'), (f) => fs.symlinkSync(c.victim, f));
  },
  setAsideIsNotADir(c) {
    const f = path.join(c.dir, 'set-aside');
    c.pick([() => replace(f, (x) => fs.writeFileSync(x, 'x')), () => replace(f, (x) => fs.symlinkSync(path.dirname(c.victim), x)), () => replace(f, mkfifo)])();
  },
  historyFiles(c) {
    // The newest generation names history files that are a FIFO, a link out, and another user's: read at resurrection, never followed or waited on.
    const g = Math.max(...c.gens);
    const jf = path.join(c.dir, journalName(g));
    if (!plain(snapFile(c, g)) || !plainDir(path.join(c.dir, 'scrollback')) || (fs.existsSync(jf) && !plain(jf))) return;
    const st = state(`g${g}`, 2);
    const sb = path.join(c.dir, 'scrollback');
    st.panes[0]!.scrollback = { file: `g${g}-fifo.gz`, blocks: ['h-link.gz', 'h-foreign.gz'], savedAt: 1, lines: 10, bytes: 10 };
    replace(path.join(sb, `g${g}-fifo.gz`), mkfifo);
    replace(path.join(sb, 'h-link.gz'), (f) => fs.symlinkSync(c.victim, f));
    fs.writeFileSync(path.join(sb, 'h-foreign.gz'), 'x');
    if (isRoot) fs.chownSync(path.join(sb, 'h-foreign.gz'), NOBODY, NOBODY);
    fs.writeFileSync(snapFile(c, g), encodeSnapshot(g, st));
    writeJournal(c.dir, g, st); // the same panes (uuids), so replay keeps their history
  },
  emptyFiles(c) {
    const g = c.pick(c.gens);
    if (plain(snapFile(c, g))) fs.writeFileSync(snapFile(c, g), '');
    if (plain(path.join(c.dir, journalName(g)))) fs.writeFileSync(path.join(c.dir, journalName(g)), '');
    c.damaged.add(g);
  },
};
const NAMES = Object.keys(DAMAGES);

/** Builds a directory of good generations 1..K (each with its journal), damages it, loads it; returns what to check. */
function runCase(seed: number, base: string): { warnings: string[]; loaded: StateFile; c: Case; good: Map<number, Buffer>; applied: string[] } {
  const rnd = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const dir = makeStateDir(base, `c${seed}`);
  fs.mkdirSync(path.join(dir, 'scrollback'), { mode: 0o700 });
  const victim = path.join(base, `victim-${seed}`);
  fs.writeFileSync(victim, 'victim\n');
  const k = 1 + Math.floor(rnd() * 4);
  const gens = Array.from({ length: k }, (_, i) => i + 1);
  for (const g of gens) {
    const st = state(`g${g}`, 1 + Math.floor(rnd() * 3));
    writeSnap(dir, g, st);
    writeJournal(dir, g, st);
  }
  const c: Case = { dir, rnd, pick, damaged: new Set(), gens, victim, next: k + 1 };
  const applied: string[] = [];
  for (let i = 0; i < 1 + Math.floor(rnd() * 3); i++) {
    const name = pick(NAMES);
    applied.push(name);
    DAMAGES[name]!(c);
  }
  const good = new Map<number, Buffer>();
  for (const g of gens) if (!c.damaged.has(g)) good.set(g, fs.readFileSync(snapFile(c, g)));
  const warnings: string[] = [];
  const store = openStore(dir, (m) => warnings.push(m));
  const loaded = loadState(store, 'testhost', (m) => warnings.push(m));
  return { warnings, loaded, c, good, applied };
}

describe('the state loader over damaged state directories', () => {
  it(`starts over each of up to ${CASES} damaged directories, keeping every good generation`, () => {
    const seed0 = Date.now() % 1_000_000;
    const end = Date.now() + BUDGET_MS;
    let ran = 0;
    const seen = new Set<string>();
    for (let i = 0; i < CASES && Date.now() < end; i++) {
      const seed = seed0 + i;
      // Cases are removed a batch at a time by rm(1): node's recursive rm cost more than a case itself.
      const base = path.join(tmp, `b${Math.floor(i / BATCH)}`);
      if (i % BATCH === 0) {
        if (i > 0) spawnSync('rm', ['-rf', path.join(tmp, `b${i / BATCH - 1}`)]);
        fs.mkdirSync(base, { recursive: true });
      }
      let r: ReturnType<typeof runCase>;
      try {
        r = runCase(seed, base);
      } catch (e) {
        throw new Error(`seed ${seed}: the loader threw: ${(e as Error).stack}`);
      }
      const why = `seed ${seed} (${r.applied.join(', ')}): ${r.warnings.join(' | ')}`;
      r.applied.forEach((a) => seen.add(a));
      // What came back is a state the daemon can serve, with pane numbers the wire carries.
      expect(StateFileSchema.safeParse(r.loaded).success, why).toBe(true);
      for (const p of r.loaded.panes) expect(p.n, why).toBeLessThanOrEqual(MAX_SAVED_PANE);
      // Nothing another user wrote was replayed.
      expect(r.loaded.sessions.some((s) => s.name === 'planted'), why).toBe(false);
      // Every good generation is still there, byte for byte, and the newest of them (or a newer one) came back.
      for (const [g, bytes] of r.good) expect(fs.readFileSync(path.join(r.c.dir, snapName(g))).equals(bytes), `${why}: generation ${g} was not kept`).toBe(true);
      const newestGood = Math.max(0, ...r.good.keys());
      if (newestGood > 0) {
        const got = Number(/^g(\d+)$/.exec(r.loaded.sessions[0]?.name ?? '')?.[1] ?? 0);
        expect(got, `${why}: came back as ${r.loaded.sessions[0]?.name}`).toBeGreaterThanOrEqual(newestGood);
      }
      // Links were never followed into the victim.
      const v = fs.readFileSync(path.join(base, `victim-${seed}`), 'utf8');
      expect(v === 'victim\n' || v === rawRecord('{"k":"reset"}'), why).toBe(true);
      ran++;
    }
    console.log(`state fuzz: ${ran} damaged directories loaded (seeds ${seed0}..${seed0 + ran - 1})`);
    expect(ran).toBeGreaterThanOrEqual(MIN_CASES);
    expect([...seen].sort()).toEqual([...NAMES].sort());
  }, 60_000);
});

describe('a real daemon over damaged state directories', () => {
  const PANE = path.join(root, 'dist/pane.mjs');
  const procs: ChildProcess[] = [];
  afterAll(() => {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  });

  /** `pane serve --state DIR`, then `pane ls` against it; the daemon is stopped after. */
  async function serveAndList(dir: string): Promise<{ out: string; ls: string }> {
    const sock = path.join(tmp, `${path.basename(dir)}.sock`);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, LANG: 'C.UTF-8', SHELL: '/bin/sh', XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_DATA_HOME: path.join(tmp, 'data'), PANE_SOCKET: sock };
    const p = spawn(process.execPath, [PANE, 'serve', '--socket', sock, '--host', 'testhost', '--state', dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(p);
    let out = '';
    p.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    p.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const end = Date.now() + 20_000;
    while (!/listening on/.test(out) && p.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    if (!/listening on/.test(out)) throw new Error(`pane serve did not start (exit ${p.exitCode}, ${p.signalCode}): ${out}`);
    const ls = spawnSync(process.execPath, [PANE, 'ls'], { env, encoding: 'utf8', timeout: 15_000 });
    await new Promise<void>((r) => (p.once('exit', () => r()), p.kill('SIGTERM')));
    if (ls.status !== 0) throw new Error(`pane ls failed: ${ls.stderr}\n${out}`);
    if (!ls.stdout.trim()) throw new Error(`pane ls printed nothing (${ls.stderr})\n${out}`);
    return { out, ls: ls.stdout };
  }

  it('starts, serves and lists the good generation over a representative handful', async () => {
    ensureBuilt();
    const combos = [
      ['snapIsFifo', 'badRecords', 'pidAndLock'],
      ['snapIsLink', 'scrollbackIsLink', 'hugeGeneration', 'tempIsDir'],
      ['newerVersion', 'hugePaneInSnap', 'setAsideIsNotADir'],
      ...(isRoot ? [['foreignJournal', 'foreignSnap', 'journalIsFifo']] : []),
      ['historyFiles', 'tempIsFifo'],
    ];
    for (const [i, combo] of combos.entries()) {
      const base = path.join(tmp, `real${i}`);
      fs.mkdirSync(base, { recursive: true });
      const rnd = rng(i + 1);
      const dir = makeStateDir(base, 'state');
      fs.mkdirSync(path.join(dir, 'scrollback'), { mode: 0o700 });
      const victim = path.join(base, 'victim');
      fs.writeFileSync(victim, 'victim\n');
      for (const g of [1, 2, 3]) {
        const st = state(`g${g}`, 2);
        writeSnap(dir, g, st);
        writeJournal(dir, g, st);
      }
      const c: Case = { dir, rnd, pick: (xs) => xs[0]!, damaged: new Set(), gens: [1, 2, 3], victim, next: 4 };
      for (const name of combo) DAMAGES[name]!(c);
      const newest = Math.max(...[1, 2, 3].filter((g) => !c.damaged.has(g)));
      const r = await serveAndList(dir);
      expect(r.ls, `${combo.join(', ')}: ${r.out}`).toContain(`g${newest}`);
      if (combo.includes('historyFiles')) expect(r.out, r.out).toMatch(/g3-fifo\.gz cannot be read \(g3-fifo\.gz is a FIFO, not a regular file\)/);
      else expect(r.out).toMatch(/set aside as set-aside\//);
      expect(fs.readFileSync(victim, 'utf8')).toBe('victim\n');
    }
  }, 120_000);
});
