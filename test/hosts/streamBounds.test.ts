// Remote streams are bounded and their offsets checked (issue 26): between two real
// in-process pane servers, each joined host dialled over a memory transport the test
// can make lie. A stream is freed when its remote pane closes, when the person leaves
// the host, and when nobody reads it for REMOTE_STREAM_IDLE_MS; a forward jump in a
// remote's output is a gap its readers see; a remote whose output goes back over bytes
// it sent, or whose pty/attach answer starts where it could not, is cut off by name,
// and another host joined beside it goes on answering. Keys typed faster than a far link's
// round trip are sent at once, in order, not one round trip apiece.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import type { WireFrame } from '../../kits/client/transport';
import { BinaryKind, decodeBinary, encodeBinary } from '../../kits/protocol/binary';
import { HEARTBEAT_MS } from '../../server/hosts/hostLink';
import type { HostService } from '../../server/hosts/hostService';
import { REMOTE_STREAM_IDLE_MS } from '../../server/hosts/remoteStream';
import type { RunningServer } from '../../server/main';
import { Gate, joinedPair, until as untilEvery, type Pair } from './pair';

/** Passes the remote's frames on (held `delay` ms each, as a far link's latency), or bends them: output offsets moved forward (a gap) or past any stream's reach, pty/attach answers started past their end, or pty/read answers naming a stream end far ahead. */
class Liar extends Gate {
  override readonly kind = 'liar';
  lie: 'none' | 'forward' | 'unreachable' | 'attach' | 'liveEnd' = 'none';
  /** What this end sent the remote since `record` was set, in order: `keys` for an input frame, else a request's method. */
  record: string[] | null = null;
  override send(f: WireFrame): void {
    if (this.record) {
      if (typeof f === 'string') this.record.push((JSON.parse(f) as { method?: string }).method ?? 'reply');
      else if ((decodeBinary(f) as { kind?: number }).kind === BinaryKind.INPUT) this.record.push('keys');
    }
    super.send(f);
  }
  protected override bend(f: WireFrame): WireFrame {
    if ((this.lie === 'forward' || this.lie === 'unreachable') && typeof f !== 'string') {
      const b = decodeBinary(f);
      if (typeof b !== 'string' && b.kind === BinaryKind.OUTPUT) return encodeBinary({ ...b, offset: this.lie === 'forward' ? b.offset + (1 << 20) : Number.MAX_SAFE_INTEGER - 1 });
    }
    if (this.lie === 'attach' && typeof f === 'string') {
      const m = JSON.parse(f) as { result?: { from?: number; streamEnd?: number } };
      if (m.result && typeof m.result.from === 'number' && typeof m.result.streamEnd === 'number') {
        m.result.from = m.result.streamEnd + 4096;
        return JSON.stringify(m);
      }
    }
    if (this.lie === 'liveEnd' && typeof f === 'string') {
      const m = JSON.parse(f) as { result?: { to?: number; streamEnd?: number; encoding?: string } };
      if (m.result && typeof m.result.to === 'number' && typeof m.result.streamEnd === 'number' && typeof m.result.encoding === 'string') {
        m.result.streamEnd += 1 << 30;
        if (typeof (m.result as { inputAt?: number }).inputAt === 'number') (m.result as { inputAt: number }).inputAt += 1 << 30;
        return JSON.stringify(m);
      }
    }
    return f;
  }
}

let pair: Pair<Liar>;
let remote: RunningServer;
let hosts: HostService;
let c: Connection;
let rc: Connection;
let liars: Map<string, Liar>;

const until = <T>(what: string, f: () => Promise<T | undefined | false> | T | undefined | false, ms: number) => untilEvery(what, f, ms, 50);

/** A pane on the remote printing a line every 100 ms; its number there. */
async function ticking(): Promise<number> {
  const s = await rc.call('session/new', { name: `tick${Date.now()}`, launch: { program: '/bin/sh', args: ['-c', 'while :; do echo tick; sleep 0.1; done'] } });
  return (await rc.call('session/get', { session: s.session })).focused!;
}

async function stateOf(name: string) {
  return (await c.call('host/list', {})).hosts.find((h) => h.name === name)!;
}

beforeAll(async () => {
  pair = await joinedPair({ name: 'streambounds', hosts: { box: {}, ok: {} }, gate: (inner) => new Liar(inner) });
  ({ remote, hosts, c, gates: liars } = pair);
  rc = await remote.connect();
  for (const name of ['box', 'ok']) expect((await c.call('host/connect', { name })).state).toBe('connected');
}, 30_000);

afterAll(async () => {
  await pair?.stop();
});

describe('remote streams', () => {
  it('frees a stream, its proxy number and its upstream attach when the remote pane closes', async () => {
    const n = await ticking();
    const a = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true });
    expect(hosts.streams.proxy(a.pane)).toBeDefined();
    const link = hosts.links.get('box')!;
    expect(link.streaming.has(n)).toBe(true);
    await rc.call('pane/close', { pane: n });
    await until('the stream freed', () => hosts.streams.proxy(a.pane) === undefined || undefined, 4 * HEARTBEAT_MS);
    expect(link.streaming.has(n)).toBe(false);
  }, 20_000);

  it('frees a stream nobody here has read for REMOTE_STREAM_IDLE_MS, and keeps one that is read', async () => {
    const [read, left] = [await ticking(), await ticking()];
    const r = await c.call('pty/attach', { pane: `box:${read}`, mode: 'from', flowControl: true });
    const l = await c.call('pty/attach', { pane: `box:${left}`, mode: 'from', flowControl: true });
    await c.call('pty/detach', { pane: l.pane });
    hosts.sweepStreams();
    expect(hosts.streams.proxy(l.pane)).toBeDefined(); // not yet: a window reloading comes back to it
    hosts.sweepStreams(Date.now() + REMOTE_STREAM_IDLE_MS);
    expect(hosts.streams.proxy(l.pane)).toBeUndefined();
    expect(hosts.streams.proxy(r.pane)).toBeDefined();
    await c.call('pty/detach', { pane: r.pane });
  });

  it('frees the streams nobody reads when the person leaves a host, and keeps a read one to go on after a rejoin', async () => {
    const n = await ticking();
    const m = await ticking();
    const a = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true });
    const b = await c.call('pty/attach', { pane: `box:${m}`, mode: 'from', flowControl: true });
    await c.call('pty/detach', { pane: b.pane });
    await c.call('host/disconnect', { name: 'box' });
    expect(hosts.streams.proxy(b.pane)).toBeUndefined();
    expect(hosts.streams.proxy(a.pane)).toBeDefined();
    expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
    let after = 0;
    const off = c.onOutput((p) => p === a.pane && after++);
    await until('the read stream going on under its number', () => after > 0 || undefined, 5000);
    off();
    await c.call('pty/detach', { pane: a.pane });
  });

  it('takes a forward jump in a host\'s output as a gap its reader sees, and cuts the host when its output then goes back over bytes it sent; the other host goes on', async () => {
    const n = await ticking();
    // A stand-in of it in the person's session: its badge says what became of the link.
    const standIn = (await c.call('host/show', { remote: `box:${n}` })).pane;
    const offsets: [number, number][] = [];
    const a = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true });
    const off = c.onOutput((p, offset, data) => p === a.pane && offsets.push([offset, data.byteLength]));
    await until('some output', () => offsets.length > 1 || undefined, 5000);
    // Its ring moved past us (decision 061): an honest host does this, and from here it cannot be told from a dishonest one.
    liars.get('box')!.lie = 'forward';
    const jumped = () => offsets.findIndex(([o], i) => i > 0 && o > offsets[i - 1]![0] + offsets[i - 1]![1]);
    await until('the jump at the reader', () => jumped() > 0 || undefined, 5000);
    const [at] = offsets[jumped()]!;
    const [before, len] = offsets[jumped() - 1]!;
    expect(at - (before + len)).toBe(1 << 20);
    await until('output after the jump', () => offsets.length > jumped() + 1 || undefined, 5000);
    expect((await stateOf('box')).state).toBe('connected');
    // Bytes it already sent, sent again at their old offsets: a lie, and the link is cut.
    liars.get('box')!.lie = 'none';
    const box = await until('box cut off', async () => ((await stateOf('box')).state === 'disconnected' ? stateOf('box') : undefined), 5000);
    off();
    expect(box.error).toMatch(/it sent pane \d+'s output at offset \d+, before \d+ it had already sent/);
    // Not "disconnected", which promises output when the link is back: it is not dialled again.
    await until('the stand-in badged cut off', async () => ((await c.call('pane/get', { pane: standIn })).attrs['remote.link'] === 'cut off') || undefined, 5000);
    expect(hosts.streams.proxy(a.pane)).toBeUndefined(); // cut for a lie: not dialled again, its streams freed
    expect((await stateOf('ok')).state).toBe('connected');
    expect((await c.call('pane/get', { pane: `ok:${n}` })).host).toBe('ok');
  }, 20_000);

  it('cuts a host whose output names an offset no stream reaches', async () => {
    expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
    const n = await ticking();
    const a = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true });
    liars.get('box')!.lie = 'unreachable';
    const box = await until('box cut off', async () => ((await stateOf('box')).state === 'disconnected' ? stateOf('box') : undefined), 5000);
    expect(box.error).toMatch(/past where any stream can reach/);
    expect(hosts.streams.proxy(a.pane)).toBeUndefined();
  }, 20_000);

  it('cuts a host whose pty/attach answer starts past its own stream end, and the other host goes on', async () => {
    expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
    const n = await ticking();
    liars.get('box')!.lie = 'attach';
    await expect(c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true })).rejects.toThrow(/cut off: its answer for pane \d+ starts it at \d+, past its own stream end/);
    const box = await stateOf('box');
    expect(box.state).toBe('disconnected');
    expect(box.error).toMatch(/past its own stream end/);
    const ok = await c.call('pty/attach', { pane: `ok:${n}`, mode: 'from', flowControl: true });
    expect(hosts.streams.proxy(ok.pane)).toBeDefined();
    expect((await stateOf('ok')).state).toBe('connected');
  }, 20_000);

  it('resumes a reader at the live end the host names, and one that names an end far past what can be on its way parks no reader and is not cut', async () => {
    expect((await c.call('host/connect', { name: 'box' })).state).toBe('connected');
    const n = await ticking();
    const a = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', flowControl: true });
    const offsets: number[] = [];
    const off = c.onOutput((p, offset) => p === a.pane && offsets.push(offset));
    await until('some output', () => offsets.length > 1 || undefined, 5000);
    // Truthful: the reader resumes where the remote's stream ends now, and output follows from there. The
    // question goes after the keys typed just before it (a window's Ctrl-C; here a key the loop ignores), so that end is past the interrupt.
    const box = liars.get('box')!;
    box.record = [];
    c.sendInput(a.pane, new TextEncoder().encode('x'));
    const live = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', from: Number.MAX_SAFE_INTEGER, flowControl: true });
    const asked = box.record.filter((m) => m === 'keys' || m === 'pty/read');
    box.record = null;
    expect(asked).toEqual(['keys', 'pty/read']);
    const remoteEnd = (await rc.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
    expect(live.from).toBeLessThanOrEqual(remoteEnd);
    offsets.length = 0;
    await until('output from the live end', () => offsets.length > 1 || undefined, 5000);
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(live.from);
    // A lie: an end a GiB ahead is not believed; the reader resumes at what arrived and still gets the ticks.
    liars.get('box')!.lie = 'liveEnd';
    const lied = await c.call('pty/attach', { pane: `box:${n}`, mode: 'from', from: Number.MAX_SAFE_INTEGER, flowControl: true });
    liars.get('box')!.lie = 'none';
    expect(lied.from).toBeLessThan(remoteEnd + (1 << 20));
    offsets.length = 0;
    await until('the ticks going on after the lie', () => offsets.length > 1 || undefined, 5000);
    off();
    expect((await stateOf('box')).state).toBe('connected');
    await c.call('pty/detach', { pane: a.pane });
  }, 20_000);

  it('resumes a reader atInput where the keys reached the program on the host, through HOST:N and through a stand-in: what was on its way before them is skipped, and an answer the host read before the question is still sent', async () => {
    for (const via of ['address', 'stand-in'] as const) {
      const s = await rc.call('session/new', { name: `answers-${via}`, launch: { program: '/bin/sh', args: ['-c', 'printf "before\\n"; read x; printf "answer-%s\\n" "$x"; exec sleep 60'] } });
      const n = (await rc.call('session/get', { session: s.session })).focused!;
      await until('its first line', async () => (await rc.call('pty/read', { pane: n, from: 0 })).data.includes('before') || undefined, 5000);
      let pane: number | string = `box:${n}`;
      if (via === 'stand-in') {
        const here = (await c.call('session/new', { name: 'near-answers' })).session;
        pane = (await c.call('host/show', { remote: `box:${n}`, pane: (await c.call('session/get', { session: here })).focused!, direction: 'horizontal' })).pane;
      }
      const a = await c.call('pty/attach', { pane: pane as never, mode: 'from', from: 0, flowControl: true });
      let text = '';
      const off = c.onOutput((p, _o, d) => p === a.pane && (text += Buffer.from(d).toString('utf8')));
      await until('the first line here', () => text.includes('before') || undefined, 5000);
      c.sendInput(a.pane, new TextEncoder().encode('go\r'));
      // The host's program answered, and this daemon received it, before the re-attach is asked.
      await until('the answer here', () => text.includes('answer-go') || undefined, 5000);
      const mark = (await rc.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
      text = '';
      // The reader had taken nothing: "before" was on its way when the key came.
      const r = await c.call('pty/attach', { pane: pane as never, mode: 'from', from: 0, flowControl: true, atInput: true });
      await until(`the answer again, ${via}`, () => text.includes('answer-go') || undefined, 5000);
      off();
      expect(text, via).not.toContain('before');
      expect(r.from, via).toBeGreaterThan(0);
      expect(r.from, via).toBeLessThan(mark);
      // A host that names a point a GiB ahead parks no reader: it resumes at what arrived, and nothing it had is sent again.
      const arrived = (await rc.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
      liars.get('box')!.lie = 'liveEnd';
      const lied = await c.call('pty/attach', { pane: pane as never, mode: 'from', from: arrived, flowControl: true, atInput: true }).finally(() => (liars.get('box')!.lie = 'none'));
      expect(lied.from, via).toBe(arrived);
      await c.call('pty/detach', { pane: pane as never });
      await rc.call('pane/close', { pane: n });
    }
  }, 30_000);

  it('sends keys typed faster than the link\'s round trip without waiting for each answer', async () => {
    const n = await ticking();
    const far = liars.get('ok')!;
    far.delay = 200;
    try {
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 10 }, (_, i) => c.call('pane/input', { pane: `ok:${n}`, data: `k${i}` })));
      // One round trip for all ten (plus the machine's own time), where one apiece took ten.
      expect(Date.now() - t0).toBeLessThan(4 * far.delay);
    } finally {
      far.delay = 0;
    }
  }, 20_000);
});
