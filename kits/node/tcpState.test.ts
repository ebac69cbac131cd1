// TCP_INFO through the real getsockopt, on loopback connections: what waits for a
// peer that stopped reading, and nothing for one that is idle.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TLS_UNACKED_MS, tcpStateAtFirstLook } from './endpoint';
import { loadTcpState } from './tcpState';

const opened: (net.Server | net.Socket)[] = [];
afterEach(() => {
  for (const x of opened.splice(0)) x instanceof net.Server ? x.close() : x.destroy();
});

/** A connected loopback pair: the accepted socket and the dialled one. */
async function pair(): Promise<[net.Socket, net.Socket]> {
  const srv = net.createServer();
  opened.push(srv);
  const accepted = new Promise<net.Socket>((resolve) => srv.once('connection', resolve));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const c = net.connect((srv.address() as net.AddressInfo).port, '127.0.0.1');
  opened.push(c);
  await new Promise((r) => c.once('connect', r));
  const s = await accepted;
  opened.push(s);
  return [s, c];
}

const read = () => {
  const r = loadTcpState();
  if (typeof r === 'string') throw new Error(`TCP_INFO is not reachable on this Linux machine: ${r}`);
  return r;
};

describe('loadTcpState', () => {
  it('says nothing waits on an idle connection, and bytes wait for a peer that stopped reading while its kernel still answers', async () => {
    const state = read();
    const [accepted, dialled] = await pair();
    const idle = state(accepted)!;
    expect(idle).toMatchObject({ unacked: 0, notSent: 0, retransmits: 0, probes: 0 });
    dialled.pause(); // the peer's program stops reading: its receive buffer fills, then its window closes
    accepted.write(Buffer.alloc(16 << 20, 0x61));
    await new Promise((r) => setTimeout(r, 1_500));
    const held = state(accepted)!;
    expect(held.notSent + held.unacked).toBeGreaterThan(0);
    expect(held.lastAckRecvMs).toBeLessThan(1_500); // its kernel acknowledged what it took
    expect(held.retransmits).toBe(0);
    dialled.resume();
  });

  it('says null for a socket with no descriptor', async () => {
    const state = read();
    const [accepted] = await pair();
    accepted.destroy();
    expect(state(accepted)).toBe(null);
    expect(state(new net.Socket())).toBe(null);
  });
});

describe('a TLS dialler’s look at TCP’s state', () => {
  it('reads the real state where koffi loads, and where it does not, says so once in the process and looks no further', async () => {
    const [accepted] = await pair();
    const said: string[] = [];
    expect(tcpStateAtFirstLook((l) => said.push(l))(accepted)).toMatchObject({ unacked: 0, notSent: 0 });
    expect(said).toEqual([]);
    let loads = 0;
    const missing = () => (loads++, 'koffi did not load (Cannot find module)');
    const first = tcpStateAtFirstLook((l) => said.push(l), missing);
    const second = tcpStateAtFirstLook((l) => said.push(l), missing);
    for (let i = 0; i < 3; i++) {
      expect(first(accepted)).toBeNull();
      expect(second(accepted)).toBeNull();
    }
    expect(said).toEqual([`a TLS server that vanishes while bytes are on their way to it is let go only when TCP gives up retransmitting (~15 min), not within ${TLS_UNACKED_MS / 1000} s: koffi did not load (Cannot find module)`]);
    expect(loads).toBe(6);
    // A one-shot dialler passes no warn: nothing is said for it.
    expect(tcpStateAtFirstLook(undefined, missing)(accepted)).toBeNull();
  });
});
