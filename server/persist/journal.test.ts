import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DUMP_SLICE_RECORDS, JournalWriter, readJournal, type JournalRecord } from './journal';
import { journalName } from './generations';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function writer(): JournalWriter {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-journal-'));
  dirs.push(dir);
  return new JournalWriter(dir, 1);
}

const extra = (family: string, v: number): JournalRecord => ({ k: 'extra', family, v });

describe('JournalWriter.appendSliced (a rotation’s whole-state dump)', () => {
  it('yields the event loop between slices, and what is appended meanwhile lands after the dump', async () => {
    const j = writer();
    const dump = Array.from({ length: DUMP_SLICE_RECORDS * 3 + 1 }, (_, i) => extra('dump', i));
    const turns: string[] = [];
    const done = j.appendSliced(dump);
    // Appended while the dump is still being encoded (after its first slice), as a flush of a change made then would be.
    setImmediate(() => {
      turns.push('turn');
      j.append([extra('later', 1)]);
    });
    j.append([extra('later', 0)]);
    await done;
    expect(turns).toEqual(['turn']); // the loop ran between slices
    await j.drained();
    await j.close();
    const warned: string[] = [];
    const back = readJournal(path.join(j.dir, journalName(1)), (m) => warned.push(m));
    expect(warned).toEqual([]);
    expect(back.map((r) => (r.k === 'extra' ? `${r.family}${String(r.v)}` : r.k))).toEqual([...dump.map((_, i) => `dump${i}`), 'later0', 'later1']);
  });

  it('is not counted in appended (a dump starts a journal) and drained() waits for it', async () => {
    const j = writer();
    let drained = false;
    const done = j.appendSliced(Array.from({ length: DUMP_SLICE_RECORDS * 2 }, (_, i) => extra('dump', i)));
    void j.drained().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false); // still encoding: nothing written yet
    await done;
    await j.drained();
    expect(drained).toBe(true);
    expect(j.appended).toBe(0);
    j.append([extra('after', 0)]);
    expect(j.appended).toBe(1);
    await j.close();
    expect(readJournal(path.join(j.dir, journalName(1)), () => undefined)).toHaveLength(DUMP_SLICE_RECORDS * 2 + 1);
  });
});
