// The shared setup of the host tests (issue 26): two real in-process pane servers,
// `near` joined to `far` over an in-memory transport the test can stall, delay or
// make lie, and an agent's connection to a server (one with an access check).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkResults } from '../../kits/client/checkResults';
import { Connection } from '../../kits/client/connection';
import { memoryPair } from '../../kits/client/memoryTransport';
import { BaseTransport, type Transport, type WireFrame } from '../../kits/client/transport';
import type { HelloParams } from '../../kits/protocol/hello';
import { attachHosts } from '../../server/hosts/index';
import type { HostService } from '../../server/hosts/hostService';
import { startServer, type RunningServer } from '../../server/main';
import { ClientConn } from '../../server/transport/clientConn';
import { expect } from 'vitest';
import { BIN, buildOnce } from '../cli/harness';
import { binDirFor, eventually, startDaemon, startSshd, type Daemon, type Sshd } from './remote';

/**
 * Passes frames both ways; stalled, the remote's answers are lost (a dead network); `delay` holds each of them that many ms (a far link);
 * held, they queue until release() passes them all in one go (as one read of a stream brings several); a subclass's `bend` rewrites them (a remote that lies).
 */
export class Gate extends BaseTransport {
  readonly kind: string = 'gate';
  stalled = false;
  /** ms each of the remote's frames is held (in order), as a far link's latency. */
  delay = 0;
  /** The remote's frames held since hold(), or null when they pass. */
  held: WireFrame[] | null = null;
  constructor(private readonly inner: Transport) {
    super();
    inner.onFrame((f) => {
      if (this.stalled) return;
      const bent = this.bend(f);
      if (this.held) this.held.push(bent);
      else if (this.delay > 0) setTimeout(() => this.deliver(bent), this.delay);
      else this.deliver(bent);
    });
    inner.onClose((r) => this.closedBy(r));
  }
  hold(): void {
    this.held ??= [];
  }
  /** Passes every held frame, in order, within one synchronous turn: no continuation of a reply among them runs before the frames after it are read. */
  release(): void {
    const frames = this.held ?? [];
    this.held = null;
    for (const f of frames) this.deliver(f);
  }
  /** The remote's frame as passed on: itself, unless a subclass lies. */
  protected bend(f: WireFrame): WireFrame {
    return f;
  }
  send(f: WireFrame): void {
    this.inner.send(f);
  }
  close(reason?: string): void {
    this.inner.close(reason);
    this.closedBy(reason ?? 'closed');
  }
}

export interface PairOptions<G extends Gate> {
  /** The temp dir's prefix, pane-NAME-. */
  name: string;
  /** Host files to write: name -> fields beside `how` (e.g. { readOnly: true }). */
  hosts: Record<string, Record<string, unknown>>;
  /** Makes each dial's gate; a plain Gate by default. */
  gate?: (inner: Transport) => G;
}

export interface Pair<G extends Gate> {
  remote: RunningServer;
  local: RunningServer;
  hosts: HostService;
  /** The person's connection to `local`. */
  c: Connection;
  dir: string;
  /** Each host's gate, the newest dial's. */
  gates: Map<string, G>;
  /** How many times a host was dialled. */
  dials: number;
  stop(): Promise<void>;
}

/** Starts `far` (remote) and `near` (local), writes the host files and joins near's hosts to far through gates. */
export async function joinedPair<G extends Gate = Gate>(opts: PairOptions<G>): Promise<Pair<G>> {
  const remote = await startServer({ socketPath: null, host: 'far', shell: '/bin/sh' });
  const local = await startServer({ socketPath: null, host: 'near', shell: '/bin/sh' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pane-${opts.name}-`));
  fs.mkdirSync(path.join(dir, 'hosts'));
  for (const [name, extra] of Object.entries(opts.hosts)) fs.writeFileSync(path.join(dir, 'hosts', `${name}.json`), JSON.stringify({ how: { via: 'command', argv: ['unused'] }, ...extra }));
  const gates = new Map<string, G>();
  const makeGate = opts.gate ?? ((inner: Transport) => new Gate(inner) as G);
  const pair = { remote, local, dir, gates, dials: 0 } as Pair<G>;
  pair.hosts = attachHosts(local.services, {
    configDir: dir,
    dial: async (entry) => {
      pair.dials++;
      const [a, b] = memoryPair();
      new ClientConn(remote.services, b, (h) => ({ capabilities: h.capabilities }));
      const g = makeGate(a);
      gates.set(entry.name, g);
      return { transport: g };
    },
  });
  pair.c = await local.connect();
  pair.stop = async () => {
    pair.hosts.stop();
    await local.stop();
    await remote.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return pair;
}

/** A connection that is an agent's: one with an access check (its .access), here one that would allow anything. */
export async function agentConnection(services: RunningServer['services'], name: string, capabilities: HelloParams['capabilities'] = ['read', 'write']): Promise<Connection> {
  const [a, b] = memoryPair();
  new ClientConn(services, b, (h) => ({ capabilities: h.capabilities, checkAccess: () => undefined }));
  const conn = new Connection(a, { checkResult: checkResults });
  await conn.hello({ client: { name, kind: 'agent' }, capabilities });
  return conn;
}

/** Polls `f` every `every` ms until it gives a value (not undefined or false), or fails naming what it waited for. */
export async function until<T>(what: string, f: () => Promise<T | undefined | false> | T | undefined | false, ms: number, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** `pane output --follow --from 0 -t TARGET` run against daemon `d`, its stdout and stderr (marked) gathered. */
export function follower(d: Daemon, target: string): { proc: ChildProcess; out: () => string } {
  const proc = spawn(BIN, ['output', '--follow', '--from', '0', '-t', target], { env: d.env, cwd: d.home, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (out += `[stderr] ${c.toString()}`));
  return { proc, out: () => out };
}

export interface SshDaemons {
  remote: Daemon;
  local: Daemon;
  sshd: Sshd;
  /** The remote's bin dir (its `pane`), on the ssh sessions' PATH. */
  bin: string;
  /** The remote pane that printed MARK-42 and then echoes what it is typed (cat). */
  n: string;
  /** Leaves box, then stops the local daemon, sshd and the remote daemon. */
  stop(): Promise<void>;
}

/** Builds pane; starts daemon `names.remote`, an sshd whose sessions run its pane, and daemon `names.local`; makes a remote pane printing `${mark}-42` then cat, and waits for the mark unless told not to. */
export async function sshDaemons(names: { remote: string; local: string }, mark: string, waitForMark = true): Promise<SshDaemons> {
  buildOnce();
  const d = {} as SshDaemons;
  d.stop = async () => {
    d.local?.pane(['host', 'disconnect', 'box']);
    await d.local?.stop();
    await d.sshd?.stop();
    await d.remote?.stop();
  };
  try {
    d.remote = await startDaemon(names.remote);
    d.bin = binDirFor(d.remote);
    d.sshd = await startSshd(d.bin);
    d.local = await startDaemon(names.local);
    const r = d.remote.pane(['new', '--', 'sh', '-c', `echo ${mark}-$((6*7)); exec cat`]);
    expect(r.status, r.stderr).toBe(0);
    d.n = r.stdout.trim();
    if (waitForMark) await eventually('the remote pane to print its marker', () => d.remote.pane(['screen', '-t', d.n]).stdout.includes(`${mark}-42`));
  } catch (e) {
    await d.stop();
    throw e;
  }
  return d;
}

/** The numbers of the lines `N<number>` in a follower's output, in the order seen. */
export function numbered(out: string): number[] {
  return out
    .split(/\r?\n/)
    .map((l) => /^N(\d+)$/.exec(l.trim())?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);
}
