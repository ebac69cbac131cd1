// State directories made by hand for the state-file attack tests: good generations
// and journals written with the daemon's own encoders, so each damage done to them
// afterwards is the only thing wrong.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LayoutNode } from '../../kits/protocol/model';
import { STATE_VERSION, type JournalRecord, type SavedPane, type StateFile } from '../../kits/protocol/snapshot';
import { encodeSnapshot, journalName, sha256, snapName } from '../../server/persist/generations';
import { encodeRecord } from '../../server/persist/journal';

export const NOBODY = 65534;

export function session(name: string, panes: number[], host = 'testhost'): StateFile['sessions'][number] {
  const layout = panes.slice(1).reduce<LayoutNode>((a, n) => ({ type: 'split', direction: 'horizontal', ratio: 50, a, b: { type: 'leaf', pane: n } }), { type: 'leaf', pane: panes[0]! });
  return { id: randomUUID(), name, host, layout, floating: [], focused: panes[0]!, zoomed: null, viewport: { cols: 80, rows: 24 }, createdAt: 1 };
}

export function pane(n: number, sessionId: string, o: { cwd?: string; launch?: SavedPane['launch']; host?: string } = {}): SavedPane {
  const host = o.host ?? 'testhost';
  return {
    n, uuid: randomUUID(), host, session: sessionId, signature: 'com.pane.terminal', kind: 'terminal',
    tag: { name: 'sh', commands: [], user: '' }, vocabulary: [], owner: 'u', cwd: o.cwd ?? '/tmp', launch: o.launch ?? null, pid: null, pgid: null,
    state: 'running', exit: null, cols: 80, rows: 23, attrs: o.launch ? {} : { 'default-shell': '1' }, createdAt: 1, address: `${host}:${n}`,
  };
}

/** A state of one session named `name` with `count` shell panes numbered from `first`. */
export function state(name: string, count = 1, first = 1): StateFile {
  const ns = Array.from({ length: count }, (_, i) => first + i);
  const s = session(name, ns);
  return { version: STATE_VERSION, savedAt: Date.now(), host: 'testhost', sessions: [s], panes: ns.map((n) => pane(n, s.id)), extra: {} };
}

export function writeSnap(dir: string, gen: number, st: StateFile): string {
  const f = path.join(dir, snapName(gen));
  fs.writeFileSync(f, encodeSnapshot(gen, st), { mode: 0o600 });
  return f;
}

/** journal-GEN.jsonl opening with the whole of `st` (as the daemon's rotation writes it), then `more`. */
export function writeJournal(dir: string, gen: number, st: StateFile, more: JournalRecord[] = []): string {
  const dump: JournalRecord[] = [...st.sessions.map((v) => ({ k: 'session' as const, v })), ...st.panes.map(({ address: _a, ...v }) => ({ k: 'pane' as const, v }))];
  const recs: JournalRecord[] = [{ k: 'reset', records: dump.length }, ...dump, ...more];
  const f = path.join(dir, journalName(gen));
  fs.writeFileSync(f, recs.map(encodeRecord).join(''), { mode: 0o600 });
  return f;
}

/** A journal line whose checksum holds over whatever JSON text it carries (a record only the schema can judge). */
export function rawRecord(json: string): string {
  return `${sha256(json).slice(0, 16)}\t${json}\n`;
}

export function makeStateDir(root: string, name = 'state'): string {
  const d = path.join(root, name);
  fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  fs.chmodSync(d, 0o700);
  return d;
}
