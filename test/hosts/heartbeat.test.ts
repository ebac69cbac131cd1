// A joined host's heartbeat (issue 35): while the link follows the host's pane events,
// a beat asks only whether the host is there (server/info); the full pane list, ~210 KB
// for 100 panes, is asked when the events may not have told everything (one dropped),
// every FULL_LIST_BEATS beats, and for `pane ls`. Counted at the link's own transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport, WireFrame } from '../../kits/client/transport';
import { HEARTBEAT_MS, FULL_LIST_BEATS } from '../../server/hosts/hostLink';
import { MAX_REMOTE_EVENTS } from '../../server/hosts/remoteEvents';
import { Gate, joinedPair, until, type Pair } from './pair';

/** Counts the requests the link sends the host, by method. */
class CountingGate extends Gate {
  readonly asked = new Map<string, number>();
  constructor(inner: Transport) {
    super(inner);
  }
  override send(f: WireFrame): void {
    if (typeof f === 'string') {
      const m = /"method":"([^"]+)"/.exec(f);
      if (m) this.asked.set(m[1]!, (this.asked.get(m[1]!) ?? 0) + 1);
    }
    super.send(f);
  }
  count(method: string): number {
    return this.asked.get(method) ?? 0;
  }
}

let pair: Pair<CountingGate>;
const gate = () => pair.gates.get('box')!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  pair = await joinedPair({ name: 'beat', hosts: { box: {} }, gate: (inner) => new CountingGate(inner) });
  expect((await pair.c.call('host/connect', { name: 'box' })).state).toBe('connected');
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

describe('a joined host’s heartbeat', () => {
  it('asks server/info on most beats, and its panes still follow the host’s changes through its events', async () => {
    expect(FULL_LIST_BEATS).toBeGreaterThan(3);
    const n = pair.hosts.remotePanes()[0]!.n;
    // The subscription answered: beats from here on need no list.
    await until('the first beat after the join', () => gate().count('server/info') > 0, HEARTBEAT_MS * 3);
    const lists = gate().count('pane/list');
    const infos = gate().count('server/info');
    await sleep(HEARTBEAT_MS * 2 + 500);
    expect(gate().count('server/info')).toBeGreaterThanOrEqual(infos + 2);
    expect(gate().count('pane/list')).toBe(lists);
    // A change on the host reaches the link's list without one.
    await pair.remote.connect().then((r) => r.call('pane/tag', { pane: n, user: 'told by its event' }));
    await until('the tag through the host’s event', () => pair.hosts.remotePanes().find((p) => p.n === n)?.tag.user === 'told by its event', 5000);
    expect(gate().count('pane/list')).toBe(lists);
    // pane ls asks for the list every time.
    await pair.hosts.freshPanes();
    expect(gate().count('pane/list')).toBe(lists + 1);
  }, 30_000);

  it('lists at the next beat when the host sent more events in one beat than the link takes', async () => {
    const n = pair.hosts.remotePanes()[0]!.n;
    const r = await pair.remote.connect();
    const lists = gate().count('pane/list');
    // Twice MAX_REMOTE_EVENTS tag changes at once (a beat that begins among them leaves more than that on one side):
    // the link drops the rest of a beat's unread, the last one among them.
    const burst = 2 * MAX_REMOTE_EVENTS + 100;
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < burst; i++) all.push(r.call('pane/tag', { pane: n, user: `burst ${i}` }));
    await Promise.all(all);
    const last = `burst ${burst - 1}`;
    await until('a full list after the dropped events', () => gate().count('pane/list') > lists, HEARTBEAT_MS * 3);
    await until('the last tag through that list', () => pair.hosts.remotePanes().find((p) => p.n === n)?.tag.user === last, HEARTBEAT_MS * 2);
    r.close();
  }, 30_000);
});
