// Daemon start over a damaged state directory (issue 23): a state of 4 shell panes
// whose journal also holds 1,000 damaged records (checksums good, records not: a pane
// number past 2^31, wrong shapes, not JSON), each one checked and set aside by the
// loader, against the same state without them, in the same run. Each start gets a
// fresh copy (a start folds the journal into a new generation, which would heal it).
import fs from 'node:fs';
import path from 'node:path';
import { rawRecord, state, writeJournal, writeSnap } from '../test/security/stateFixtures';
import { loadState, openStore } from '../server/persist/loader';
import { client, startServerProc } from './procs';
import { range, summarize, fmt, type Row } from './stats';

/** Damaged records in the journal: what the row names. */
const DAMAGED = 1_000;
const BAD = ['{"k":"pane","v":{"n":9007199254740993}}', '{"k":"pane-gone","n":1e300}', '{"k":"session","v":null}', '{"k":"nonsense"}', 'not json', '[1,2,3]'];

function template(dir: string, damaged: boolean): string {
  const d = path.join(dir, damaged ? 'damaged' : 'clean');
  fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const st = state('bench', 4);
  for (const p of st.panes) p.cwd = dir;
  writeSnap(d, 1, st);
  const f = writeJournal(d, 1, st);
  if (damaged) fs.appendFileSync(f, Array.from({ length: DAMAGED }, (_, i) => rawRecord(BAD[i % BAD.length]!)).join(''));
  return d;
}

/** Spawn to the first answer to pane/list, over a fresh copy of `from`. */
async function startOver(dir: string, from: string, run: number): Promise<number> {
  const home = path.join(dir, `run-${path.basename(from)}-${run}`);
  fs.mkdirSync(home, { recursive: true });
  const st = path.join(home, 'state');
  fs.cpSync(from, st, { recursive: true });
  fs.chmodSync(st, 0o700);
  const t0 = performance.now();
  const srv = await startServerProc(home, ['--state', st]);
  const c = await client(srv.socket);
  const { panes } = await c.call('pane/list', {});
  const ms = performance.now() - t0;
  if (panes.length !== 4) throw new Error(`the damaged-state start brought back ${panes.length} panes, not 4`);
  c.close();
  await srv.stop();
  fs.rmSync(home, { recursive: true, force: true });
  return ms;
}

/** The loader alone (sweep, newest good generation, journal replay), in this process, over a fresh copy of `from`. */
function loadOver(dir: string, from: string, run: number): number {
  const st = path.join(dir, `load-${path.basename(from)}-${run}`);
  fs.cpSync(from, st, { recursive: true });
  const t0 = performance.now();
  const state = loadState(openStore(st, () => undefined), 'bench', () => undefined);
  const ms = performance.now() - t0;
  if (state.panes.length !== 4) throw new Error(`the loader brought back ${state.panes.length} panes, not 4`);
  fs.rmSync(st, { recursive: true, force: true });
  return ms;
}

export async function damagedStateRows(dir: string, runs: number): Promise<Row[]> {
  fs.mkdirSync(dir, { recursive: true });
  const clean = template(dir, false);
  const damaged = template(dir, true);
  const a: number[] = [];
  const b: number[] = [];
  // Interleaved, so the machine's load falls on both alike.
  for (let r = 0; r < Math.max(5, runs); r++) {
    b.push(await startOver(dir, damaged, r));
    a.push(await startOver(dir, clean, r));
  }
  const la: number[] = [];
  const lb: number[] = [];
  for (let r = 0; r < 50; r++) {
    lb.push(loadOver(dir, damaged, r));
    la.push(loadOver(dir, clean, r));
  }
  const on = summarize(b);
  const off = summarize(a);
  const lon = summarize(lb.slice(5));
  const loff = summarize(la.slice(5));
  return [
    { bench: `state loader alone (sweep, load, replay) over ${fmt(DAMAGED, 0)} damaged journal records (ms)`, figure: range(lon, 2), anchor: `clean state dir ${range(loff, 2)}`, ratio: `${fmt(lon.median / loff.median)}×`, aim: 'report' },
    { bench: `daemon start over a state directory with ${fmt(DAMAGED, 0)} damaged journal records, to pane/list answered (ms)`, figure: range(on, 0), anchor: `clean state dir ${range(off, 0)}`, ratio: `${fmt(on.median / off.median)}×`, aim: 'report' },
  ];
}
