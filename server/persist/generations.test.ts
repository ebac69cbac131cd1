import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_VERSION, migrateState, type StateFile } from '../../kits/protocol/snapshot';
import { encodeSnapshot, encodeSnapshotSliced, ENCODE_SLICE_PANES, GenerationStore, snapName } from './generations';
import { applyRecords, encodeRecord, readJournal } from './journal';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-gen-'));
  dirs.push(d);
  return d;
}

const session = { id: '6f1c2b1e-9a9b-4c1e-8f7a-1b2c3d4e5f60', name: 'main', host: 'h', layout: { type: 'leaf' as const, pane: 1 }, floating: [], focused: 1, zoomed: null, viewport: { cols: 80, rows: 24 }, placements: [], createdAt: 1 };
const pane = {
  n: 1, uuid: '7f1c2b1e-9a9b-4c1e-8f7a-1b2c3d4e5f61', host: 'h', session: session.id, signature: 'com.pane.terminal', kind: 'terminal' as const,
  tag: { name: 'bash', commands: [], user: '' }, vocabulary: [], owner: 'u', cwd: '/tmp', launch: null, pid: null, pgid: null, state: 'running' as const,
  exit: null, cols: 80, rows: 23, attrs: {}, createdAt: 1,
};
const state = (name: string): StateFile => ({ version: STATE_VERSION, savedAt: 5, host: 'h', sessions: [{ ...session, name }], panes: [{ ...pane, address: 'h:1' }], extra: {} });

describe('snapshot generations', () => {
  it('encodes a state over turns of the event loop to the same bytes as in one piece', async () => {
    // More panes than two slices, text that looks like the panes' place-holder, and odd characters.
    const panes = Array.from({ length: ENCODE_SLICE_PANES * 2 + 3 }, (_, i) => ({ ...pane, n: i + 1, address: `h:${i + 1}`, cwd: i === 7 ? '"pane-snapshot-panes-x" \u2028 ✓' : '/tmp', tag: { ...pane.tag, name: `p${i}` } }));
    const big: StateFile = { ...state('main'), panes, extra: { agents: { note: 'pane-snapshot-panes-' } } };
    let ran = false;
    setImmediate(() => (ran = true));
    const sliced = await encodeSnapshotSliced(4, big);
    expect(ran).toBe(true); // it gave the event loop a turn (in one piece, it would resolve before this ran)
    expect(sliced).toBe(encodeSnapshot(4, big));
    // Nothing but the one pane list: no panes, too.
    expect(await encodeSnapshotSliced(5, { ...big, panes: [] })).toBe(encodeSnapshot(5, { ...big, panes: [] }));
  });

  it('sets a corrupt newest generation aside with a warning and reads the one before', async () => {
    const dir = tmp();
    const warnings: string[] = [];
    const store = new GenerationStore(dir, (m) => warnings.push(m));
    await store.write(1, state('one'));
    await store.write(2, state('two'));
    const f2 = path.join(dir, snapName(2));
    fs.writeFileSync(f2, fs.readFileSync(f2, 'utf8').replace('two', 'tw0'));
    expect(store.newestGood()?.state.sessions[0]!.name).toBe('one');
    expect(warnings.join('\n')).toMatch(/snap-000002\.json fails its checksum; set aside as set-aside\/snap-000002\.json\.\d+-\d+; using an older generation/);
    expect(fs.readdirSync(path.join(dir, 'set-aside')).some((f) => f.startsWith('snap-000002.json.'))).toBe(true);
  });

  it('calls a file cut short truncated, not corrupt JSON', async () => {
    const dir = tmp();
    const warnings: string[] = [];
    const store = new GenerationStore(dir, (m) => warnings.push(m));
    await store.write(3, state('x'));
    const f = path.join(dir, snapName(3));
    fs.truncateSync(f, fs.statSync(f).size - 10);
    expect(store.newestGood()).toBeNull();
    expect(warnings[0]).toMatch(/is truncated/);
  });

  it('sets a snapshot from a newer pane aside, naming both versions, and reads the one before', async () => {
    const dir = tmp();
    const warnings: string[] = [];
    const store = new GenerationStore(dir, (m) => warnings.push(m));
    await store.write(3, state('older'));
    fs.writeFileSync(path.join(dir, snapName(4)), encodeSnapshot(4, { ...state('n'), version: 9 as never }));
    expect(store.newestGood()?.state.sessions[0]!.name).toBe('older');
    expect(warnings.join('\n')).toMatch(/version 9, newer than this pane, which reads versions 1 to 2; update pane to read it; set aside as set-aside\/snap-000004\.json\./);
    // Kept whole in set-aside/, for the newer pane that wrote it.
    expect(fs.readdirSync(path.join(dir, 'set-aside')).filter((f) => f.startsWith('snap-000004.json.'))).toHaveLength(1);
  });

  it('migrates a version 1 session snapshot (what `pane session save` printed) to the current version', () => {
    const s = migrateState({ version: 1, session, panes: [pane] });
    expect(s.version).toBe(STATE_VERSION);
    expect(s.panes[0]!.address).toBe('h:1');
    expect(s.sessions[0]!.id).toBe(session.id);
  });

  it('keeps only the newest generations, with their journals and histories', async () => {
    const dir = tmp();
    const store = new GenerationStore(dir, () => undefined);
    for (let g = 1; g <= 10; g++) {
      await store.write(g, state(`g${g}`));
      fs.writeFileSync(path.join(dir, `journal-${String(g).padStart(6, '0')}.jsonl`), '');
      fs.writeFileSync(path.join(dir, 'scrollback', `g${g}-x.gz`), 'x');
    }
    await store.prune();
    expect(store.gens()).toEqual([10, 9, 8, 7, 6, 5, 4, 3]);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('journal-')).length).toBe(8);
    expect(fs.readdirSync(path.join(dir, 'scrollback')).sort()[0]).toBe('g10-x.gz');
  });

  it('keeps history blocks while a kept generation names them, including one an earlier daemon wrote', async () => {
    const dir = tmp();
    const withBlocks = (g: number, blocks: string[]): StateFile => ({ ...state(`g${g}`), panes: [{ ...pane, address: 'h:1', scrollback: { file: `g${g}-x.gz`, blocks, savedAt: 1, lines: 1, bytes: 1 } }] });
    const block = (b: string) => fs.writeFileSync(path.join(dir, 'scrollback', b), 'x');
    // Generation 1 was written by an earlier daemon: this store has to read it to know what it names.
    new GenerationStore(dir, () => undefined);
    ['h-a-0.gz', 'h-a-1.gz', 'h-a-2.gz', 'h-orphan.gz'].forEach(block);
    fs.writeFileSync(path.join(dir, snapName(1)), encodeSnapshot(1, withBlocks(1, ['h-a-0.gz', 'h-a-1.gz'])));
    const store = new GenerationStore(dir, () => undefined);
    for (let g = 2; g <= 8; g++) await store.write(g, withBlocks(g, ['h-a-1.gz', 'h-a-2.gz']));
    await store.prune();
    expect(fs.readdirSync(path.join(dir, 'scrollback')).filter((f) => f.startsWith('h-')).sort()).toEqual(['h-a-0.gz', 'h-a-1.gz', 'h-a-2.gz']);
    expect(store.list().find((g) => g.gen === 8)!.bytes).toBe(fs.statSync(path.join(dir, snapName(8))).size + 2); // its two blocks count
    await store.write(9, withBlocks(9, ['h-a-2.gz'])); // generation 1 falls out of the eight kept
    await store.prune();
    expect(fs.readdirSync(path.join(dir, 'scrollback')).filter((f) => f.startsWith('h-')).sort()).toEqual(['h-a-1.gz', 'h-a-2.gz']);
  });
});

describe('the journal', () => {
  it('replays whole-entity records and stops at a torn last line, saying so', () => {
    const dir = tmp();
    const file = path.join(dir, 'journal-000001.jsonl');
    const moved = { ...session, focused: null, name: 'renamed' };
    fs.writeFileSync(file, encodeRecord({ k: 'session', v: moved }) + encodeRecord({ k: 'pane-gone', n: 1 }).slice(0, 20));
    const warnings: string[] = [];
    const recs = readJournal(file, (m) => warnings.push(m));
    expect(recs).toHaveLength(1);
    expect(warnings[0]).toMatch(/line 2 is torn/);
    const s = state('main');
    applyRecords(s, recs);
    expect(s.sessions[0]!.name).toBe('renamed');
    expect(s.panes).toHaveLength(1);
  });

  it('keeps a pane’s saved history across a reset dump of the same pane', () => {
    const s = state('main');
    s.panes[0]!.scrollback = { file: 'g1-a.gz', savedAt: 1, lines: 3, bytes: 10 };
    applyRecords(s, [{ k: 'reset' }, { k: 'session', v: session }, { k: 'pane', v: { ...pane, cwd: '/srv' } }]);
    expect(s.panes[0]!.scrollback?.file).toBe('g1-a.gz');
    expect(s.panes[0]!.cwd).toBe('/srv');
  });
});
