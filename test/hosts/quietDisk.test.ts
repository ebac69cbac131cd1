// A daemon joined to a host leaves its disk alone while nothing changes. The link
// asks the host for its agents every REMOTE_AWARENESS_POLL_MS and mirrors them into
// the local awareness engine; that mirror marked the registry changed and ran a pass
// on every poll, so the daemon rewrote and fsynced registry.json and predictions.json
// (and their .bak copies) every 2 s for as long as the host stayed joined — a
// laptop's disk and battery, for nothing. Two real daemons here, the remote joined
// as a `command` host as `pane host add` makes one; the local daemon's awareness
// files are watched by inode and mtime across several polls, before and after the
// remote gains an agent (whose mirror must still be written once).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_AWARENESS_POLL_MS } from '../../server/hosts/remoteAwareness';
import { buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, type Daemon } from './remote';

let remote: Daemon;
let local: Daemon;
let dir: string;

/** Each file of the local daemon's awareness dir, by name: its inode and mtime (a write renames a new file into place). */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir)) {
    const st = fs.statSync(path.join(dir, f), { throwIfNoEntry: false });
    if (st) out[f] = `${st.ino}@${st.mtimeMs}`;
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls the local daemon makes in this wait, and the awareness saver's 1 s delay after the last of them. */
const QUIET_WAIT_MS = 2 * REMOTE_AWARENESS_POLL_MS + 1500;

beforeAll(async () => {
  buildOnce();
  remote = await startDaemon('quiet-remote');
  local = await startDaemon('quiet-local');
  dir = path.join(local.home, '.data', 'pane', 'awareness');
  const add = local.pane(['host', 'add', 'box', '--', path.join(binDirFor(remote), 'pane'), 'serve', '--stdio']);
  expect(add.status, add.stderr).toBe(0);
  const j = local.pane(['host', 'connect', 'box']);
  expect(j.status, j.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  local?.pane(['host', 'disconnect', 'box']);
  await local?.stop();
  await remote?.stop();
});

describe('a joined host and the disk', () => {
  it('rewrites no awareness file while the host reports the same agents, and writes once when they change', async () => {
    // The first polls after the join may write once (a first mirror, a first pass); then the files settle.
    await sleep(QUIET_WAIT_MS);
    const settled = files();
    await sleep(QUIET_WAIT_MS);
    expect(files()).toEqual(settled);

    // An agent's words on the remote: the next poll mirrors ada@box here, and that is written.
    const said = remote.pane(['awareness', 'prompt', 'ada', 'refactor', 'the', 'billing', 'invoice', 'export']);
    expect(said.status, said.stderr).toBe(0);
    const registry = path.join(dir, 'registry.json');
    await eventually('ada@box in the local registry file', () => fs.existsSync(registry) && fs.readFileSync(registry, 'utf8').includes('"ada@box"'), REMOTE_AWARENESS_POLL_MS * 5);
    const withAda = await (async () => {
      await sleep(1500); // the saver's delay: the rest of that change's writes
      return files();
    })();
    // Reported again and again unchanged: still mirrored (finger and the board see it), nothing written.
    await sleep(QUIET_WAIT_MS);
    expect(files()).toEqual(withAda);
    const agents = local.pane(['awareness', 'agents', '--json']);
    expect(agents.status, agents.stderr).toBe(0);
    expect(agents.stdout).toContain('ada@box');
  }, 60_000);
});
