// Bringing the state back: the newest generation that reads back whole, then every
// later journal replayed. Apart from the lock and resurrection, so the loader fuzz
// test (test/security/stateFuzz.test.ts) drives exactly what the daemon runs.
import path from 'node:path';
import fs from 'node:fs';
import { STATE_VERSION, type StateFile } from '../../kits/protocol/snapshot';
import { GenerationStore, genOf, journalName } from './generations';
import { applyRecords, readJournal } from './journal';

const JOURNAL = /^journal-(\d{6,})\.jsonl$/;

/**
 * The newest good generation with every later journal replayed; an empty state only
 * when there is nothing at all. Whatever is not pane's was set aside by `store.sweep()`
 * first; a file that fails here is set aside (snapshots) or skipped (journal records)
 * with a warning, never thrown: a damaged state directory never stops the daemon.
 */
export function loadState(store: GenerationStore, host: string, warn: (m: string) => void): StateFile {
  const hadSnapshots = store.gens().length > 0;
  const base = store.newestGood();
  const state: StateFile = base?.state ?? { version: STATE_VERSION, savedAt: Date.now(), host, sessions: [], panes: [], extra: {} };
  const from = base?.header.gen ?? 0;
  const journals = fs
    .readdirSync(store.dir)
    .map((f) => genOf(f, JOURNAL))
    .filter((g): g is number => g !== null && g >= from)
    .sort((a, b) => a - b);
  if (!base && hadSnapshots) warn(`no snapshot generation reads back whole; rebuilding from ${journals.length} journal(s)`);
  for (const g of journals) applyRecords(state, readJournal(path.join(store.dir, journalName(g)), warn));
  return state;
}

/** Opens the store over a state directory already checked (checkStateDir) and locked: sweeps it first. */
export function openStore(dir: string, warn: (m: string) => void): GenerationStore {
  const store = new GenerationStore(dir, warn);
  store.sweep();
  return store;
}
