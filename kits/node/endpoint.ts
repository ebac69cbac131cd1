// Dialing and listening on an Endpoint (kits/protocol/endpoint.ts) from Node: the one
// place that knows how each kind of endpoint becomes a byte stream. Every stream
// becomes a Transport through the one adapter (streamTransport.ts); a WebSocket
// through WsTransport. A new transport is one case here and one in the union.
// node:tls, node:child_process and ws are loaded when first used: the one-shot CLI
// dials a unix socket and would pay ~7 ms at every start for them (decision 020).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type tls from 'node:tls';
import type { Transport } from '../client/transport';
import type { Endpoint, ListenEndpoint } from '../protocol/endpoint';
import { describeEndpoint } from '../protocol/endpointForm';
import { checkPrivateDir, dataDir } from './paths';
import { endableChild, endProcess } from './ending';
import { awaitPreamble } from './stdioPreamble';
import { loadTcpState, type ReadTcpState } from './tcpState';
import { UnackedWatch } from './unackedWatch';
import { SocketTransport } from './socketTransport';
import { StreamTransport, type StreamTransportOptions } from './streamTransport';

/** How long a dial may take to connect (TCP and TLS handshake, ws upgrade) before it gives up; stdio has its preamble bound instead. */
export const DIAL_TIMEOUT_MS = 10_000;
/** Bytes of a stdio command's stderr kept to explain its failure (ssh's "Permission denied", "pane: not found"). */
const STDERR_KEPT = 2048;
/** How long a stdio command is given to exit after its stdin is closed before it is sent SIGTERM. */
const EXEC_EXIT_GRACE_MS = 2_000;

/** A dial that failed: the endpoint, why, and the OS error code when there is one (ENOENT, ECONNREFUSED...). */
export class DialError extends Error {
  constructor(
    readonly endpoint: Endpoint,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(`cannot reach ${describeEndpoint(endpoint)}: ${reason}`);
  }
}

export interface DialOptions {
  timeoutMs?: number;
  /** Drop the stream at once on close (a one-shot client); see StreamTransportOptions. */
  dropOnClose?: boolean;
  /** For exec: where the child's stderr goes; 'pipe' (default) keeps its tail for error messages. */
  stderr?: 'pipe' | 'inherit';
  /** For exec: how long the command may take to print its preamble (default STDIO_PREAMBLE_TIMEOUT_MS; `timeoutMs` is not used for it, a remote's login and start take longer than a connect). */
  preambleTimeoutMs?: number;
  /** For exec: told the skipped byte count and the remote pane version once the preamble is seen. */
  onPreamble?: (p: { version: string; skipped: number }) => void;
  /** For tls: where a long-lived dialler (a joined host's link) is told, once, what this machine cannot do for it (no look at TCP's state without koffi). */
  warn?: (line: string) => void;
}

/** The socket path of agent `name`: its home's pane.sock under the agents' directory. */
export function agentSocketPath(agent: string, root = path.join(dataDir(), 'agents')): string {
  return path.join(root, agent, 'pane.sock');
}

/** Opens a Transport to `e`; rejects with a DialError naming the endpoint and why. */
export function dial(e: Endpoint, o: DialOptions = {}): Promise<Transport> {
  switch (e.kind) {
    case 'unix':
      return dialNet(e, { path: e.path }, 'unix', o);
    case 'agent':
      return dialNet(e, { path: agentSocketPath(e.agent, e.root) }, 'agent', o);
    case 'exec':
      return dialExec(e, o);
    case 'tls':
      return dialTls(e, o);
    case 'ws':
      return dialWs(e, o);
    case 'tcp':
      return dialNet(e, { host: e.host, port: e.port }, 'tcp', o);
  }
}

function streamOpts(o: DialOptions): StreamTransportOptions {
  return o.dropOnClose ? { dropOnClose: true } : {};
}

function dialNet(e: Endpoint, to: net.NetConnectOpts, kind: string, o: DialOptions): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection(to);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new DialError(e, 'it did not accept the connection in time', 'ETIMEDOUT'));
    }, o.timeoutMs ?? DIAL_TIMEOUT_MS);
    s.once('connect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      resolve(new SocketTransport(s, kind, streamOpts(o)));
    });
    s.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new DialError(e, err.message, err.code));
    });
  });
}

function readPem(e: Endpoint, file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new DialError(e, `cannot read ${file}: ${(err as Error).message}`, (err as NodeJS.ErrnoException).code);
  }
}

async function dialTls(e: Extract<Endpoint, { kind: 'tls' }>, o: DialOptions): Promise<Transport> {
  const tls = await import('node:tls');
  return new Promise((resolve, reject) => {
    let opts: tls.ConnectionOptions;
    try {
      const [cert, key, ca] = [readPem(e, e.cert), readPem(e, e.key), readPem(e, e.ca)];
      // An IP is checked against the certificate's IP names; SNI carries host names only (RFC 6066).
      const servername = e.servername ?? (net.isIP(e.host) ? undefined : e.host);
      opts = { host: e.host, port: e.port, ...(servername ? { servername } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
    } catch (err) {
      return reject(err);
    }
    // Node checks the server's certificate against `ca` (or the system's roots) and its name; nothing here loosens that.
    const s = tls.connect(opts);
    // Either end may be the one whose machine vanishes: a watch or a follow here must not wait on a server that is gone.
    s.setKeepAlive(true, TLS_KEEPALIVE_MS);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new DialError(e, 'no TLS handshake in time', 'ETIMEDOUT'));
    }, o.timeoutMs ?? DIAL_TIMEOUT_MS);
    s.once('secureConnect', () => {
      clearTimeout(timer);
      s.removeAllListeners('error');
      // The same watch as the door's, this way round: a follower acknowledges what it reads, and bytes it read from
      // its kernel after the server's machine went are acknowledged into a dead link, where keepalive never asks.
      const watch = new UnackedWatch(s, tcpStateAtFirstLook(o.warn), TLS_UNACKED_MS, `no acknowledgment for ${TLS_UNACKED_MS / 1000} s with bytes waiting: ETIMEDOUT`);
      resolve(new StreamTransport(s, s, 'tls', { ...streamOpts(o), onSend: () => watch.sent() }));
    });
    s.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new DialError(e, err.message, err.code));
    });
  });
}

/** Whether a dialler was told this process cannot read TCP's state: said once, not per connection. */
let saidNoTcpState = false;

/**
 * TCP's state reader for a dialled connection, bound at its first look
 * (UNACKED_CHECK_MS after a send): a one-shot command over TLS has ended by then and
 * never loads koffi (~9 ms). Without it (no koffi, not glibc) nothing is looked at,
 * and a server that vanished mid-send is given up when TCP gives up: `warn` hears
 * that once in this process, at the first look, as the TLS door says it at its start.
 */
export function tcpStateAtFirstLook(warn?: (line: string) => void, load: () => ReadTcpState | string = loadTcpState): ReadTcpState {
  return (sock) => {
    const read = load();
    if (typeof read !== 'string') return read(sock);
    if (warn && !saidNoTcpState) {
      saidNoTcpState = true;
      warn(`a TLS server that vanishes while bytes are on their way to it is let go only when TCP gives up retransmitting (~15 min), not within ${TLS_UNACKED_MS / 1000} s: ${read}`);
    }
    return null;
  };
}

async function dialWs(e: Extract<Endpoint, { kind: 'ws' }>, o: DialOptions): Promise<Transport> {
  const { openWebSocket } = await import('./wsDial');
  try {
    return await openWebSocket(e.url, o.timeoutMs ?? DIAL_TIMEOUT_MS);
  } catch (err) {
    throw new DialError(e, (err as Error).message, (err as NodeJS.ErrnoException).code);
  }
}

/**
 * The fix for an ssh that exits 255 before the preamble: that status is ssh's own
 * failure (the host key, the login, the network), before any pane ran there, so
 * "is pane installed there" would send the person the wrong way.
 */
const SSH_FAILED = "exit 255 is ssh's own failure (the host key, the login or the network), before pane ran there: run that ssh by hand until it logs in with no prompt (pane runs it with BatchMode=yes: a key or an agent, and the host key already in known_hosts)";

/**
 * Spawns the endpoint's argv and speaks the protocol on its stdin/stdout once it has
 * printed the stdio preamble; anything before the preamble (a motd) is skipped, up to
 * the bound. Closing the transport closes the child's stdin; a child still running
 * EXEC_EXIT_GRACE_MS later is sent SIGTERM.
 */
async function dialExec(e: Extract<Endpoint, { kind: 'exec' }>, o: DialOptions): Promise<Transport> {
  const [cmd, ...args] = e.argv as [string, ...string[]];
  const { spawn } = await import('node:child_process');
  // Pipes, not Node's socket pairs: a `pane serve --stdio` at the other end can hand them to its daemon (fifoStdio.ts).
  const { fifoStdio } = await import('./fifoStdio');
  const pipes = await fifoStdio();
  let child: ChildProcess;
  try {
    child = spawn(cmd, args, { stdio: pipes ? [pipes.childIn, pipes.childOut, o.stderr ?? 'pipe'] : ['pipe', 'pipe', o.stderr ?? 'pipe'] });
  } catch (err) {
    pipes?.destroy();
    throw new DialError(e, (err as Error).message);
  }
  // The child holds its own copies; ours would keep its stdout open after it exits (no end of file).
  pipes?.closeChildEnds();
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString('utf8')).slice(-STDERR_KEPT);
  });
  // 'close', not 'exit': the child's stderr may still be arriving when it has exited, and its last line is the reason.
  const exited = new Promise<string>((resolve) => {
    child.once('close', (code, signal) => resolve(signal ? `killed by ${signal}` : `exit ${code}`));
    child.once('error', (err) => resolve(err.message));
  });
  const ended = async () => {
    const status = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 500).unref())]);
    const tail = stderr.trim().split('\n').slice(-3).join(' / ');
    return tail ? `${status}; stderr: ${tail}` : status;
  };
  const stdout = pipes?.fromChild ?? child.stdout!;
  const stdin = pipes?.toChild ?? child.stdin!;
  stdin.on('error', () => undefined); // a child that exits early: its exit says why, not EPIPE
  let pre;
  try {
    pre = await awaitPreamble(stdout, { what: 'it', ...(o.preambleTimeoutMs !== undefined ? { timeoutMs: o.preambleTimeoutMs } : {}), ended, whyEnded: (said) => (/(^|\/)ssh$/.test(cmd) && /^exit 255\b/.test(said) ? SSH_FAILED : undefined) });
  } catch (err) {
    stop(child, stdin);
    stdout.destroy();
    throw new DialError(e, (err as Error).message);
  }
  o.onPreamble?.({ version: pre.version, skipped: pre.skipped });
  const t = new StreamTransport(stdout, stdin, 'exec', { ...streamOpts(o), head: pre.head });
  stdout.resume();
  t.onClose(() => stop(child, stdin));
  return t;
}

/** Ends a stdio child: its stdin closed (a `pane serve --stdio` exits on it), then SIGTERM if it lingers. */
function stop(child: ChildProcess, stdin: NodeJS.WritableStream): void {
  stdin.end();
  void endProcess(endableChild(child), { then: 'SIGTERM', graceMs: EXEC_EXIT_GRACE_MS, unref: true });
}

/** A listening endpoint: where it listens, and how to stop. */
export interface Listener {
  readonly endpoint: ListenEndpoint;
  /** The server (net.Server or tls.Server), e.g. for its address(). */
  readonly server: net.Server | tls.Server;
  close(): Promise<void>;
}

/** What listen hands each accepted connection: a transport over its stream (not yet admitted). */
export type OnTransport = (t: StreamTransport) => void;

/**
 * Listens on a unix socket or a TLS port. A unix socket is made 0600 from birth (umask)
 * in a directory that must be ours and 0700 (one someone else may write could hold a
 * socket of theirs in our name); a socket file left by a dead server is replaced, a live
 * one refused. TLS asks for a client certificate when `ca` is given and refuses a peer
 * without one signed by it (mutual TLS); without `ca` it takes any client, so a caller
 * must then authenticate in the hello.
 */
export async function listen(e: ListenEndpoint, onTransport: OnTransport, o: ListenOptions = {}): Promise<Listener> {
  if (e.kind === 'tls') return listenTls(e, onTransport, o);
  const socketPath = e.path;
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const wrong = checkPrivateDir(dir);
  if (wrong) throw new Error(wrong);
  await clearStale(socketPath);
  const srv = net.createServer((sock) => onTransport(new SocketTransport(sock, 'unix')));
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    // umask makes the socket 0600 from birth (chmod after listen would leave a window).
    const old = process.umask(0o177);
    srv.listen(socketPath, () => {
      process.umask(old);
      srv.removeListener('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    endpoint: e,
    server: srv,
    close: () =>
      new Promise<void>((resolve) => {
        srv.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * How long a TLS peer has, from its connection, to finish the handshake. Node's default
 * is 120 s, during which a silent connection holds a descriptor: 400 of them had brought
 * the daemon near its open-file limit (the person's own `pane ls` failed). A handshake
 * takes milliseconds on a LAN and well under a second across the world; 5 s is generous.
 */
export const TLS_HANDSHAKE_TIMEOUT_MS = 5_000;
/**
 * Connections still in their TLS handshake at once, on one listener: a few windows and CLIs of
 * the person's other machines connect at a time; 32 is ample, and bounds what peers that
 * have proven nothing can hold.
 */
export const MAX_TLS_HANDSHAKES = 32;
/** The same from one address: one machine reconnecting several clients at once, not a flood. */
export const MAX_TLS_HANDSHAKES_PER_ADDRESS = 8;
/**
 * Silence on a TLS connection after which TCP asks whether the peer is still there
 * (keepalive; then libuv's 10 probes a second apart), on the door's side and the
 * dialler's. A window, CLI or joined host on the person's other machine may sit idle
 * for hours, and when either machine vanishes (a laptop shut, a link cut, a VM gone)
 * nothing is ever sent again, so nothing fails: the door held its client, its
 * subscriptions and a descriptor until the daemon stopped, and a `pane watch` there
 * waited for ever. With keepalive the other end is closed ~40 s after one went. A
 * peer that is there answers in its kernel; neither process wakes for it.
 */
export const TLS_KEEPALIVE_MS = 30_000;
/**
 * How long a peer of the TLS door may acknowledge nothing, with bytes the door sent
 * waiting for it and its last retransmission (or two window probes) unanswered, before the
 * door lets it go (kits/node/unackedWatch.ts): keepalive asks only while nothing is in
 * flight, so a follower or a window's stream whose machine vanished mid-output was
 * retransmitted to until `tcp_retries2` gave up, ~15 minutes, holding its client and
 * subscriptions. The same bound as an idle peer's: keepalive's wait and its probes.
 * A peer that is there and only stopped reading (Ctrl-Z) answers the kernel's window
 * probes and is kept. A dialler (a CLI, a joined host's link) keeps the same watch
 * on the server: a follower's acknowledgments of what it read wait the same way.
 */
export const TLS_UNACKED_MS = TLS_KEEPALIVE_MS + 10_000;

export interface ListenOptions {
  /**
   * TLS with `ca`: a peer without a certificate the CA signed finishes the handshake
   * all the same (\`authorized\` false on its socket) instead of being dropped, for a
   * door that lets such a peer in on other proof (an attach grant's token in its hello)
   * and as nothing more. A certificate is still asked for, and checked.
   */
  certOptional?: boolean;
  /** Where a TLS door says, once, what this machine cannot do for it (no look at TCP's state without koffi). */
  warn?: (line: string) => void;
}

async function listenTls(e: Extract<Endpoint, { kind: 'tls' }>, onTransport: OnTransport, o: ListenOptions): Promise<Listener> {
  if (e.cert === undefined || e.key === undefined) throw new DialError(e, 'a TLS listener needs cert= and key= (its certificate and private key)');
  const [cert, key, ca] = [readPem(e, e.cert), readPem(e, e.key), readPem(e, e.ca)];
  const tls = await import('node:tls');
  const tcpState = loadTcpState();
  if (typeof tcpState === 'string') o.warn?.(`a TLS peer that vanishes while output is on its way to it is let go only when TCP gives up retransmitting (~15 min), not within ${TLS_UNACKED_MS / 1000} s: ${tcpState}`);
  const srv = tls.createServer({ cert, key, handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS, ...(ca ? { ca, requestCert: true, rejectUnauthorized: !o.certOptional } : {}) }, (sock) => {
    const watch = typeof tcpState === 'string' ? null : new UnackedWatch(sock, tcpState, TLS_UNACKED_MS, `the peer acknowledged nothing for ${TLS_UNACKED_MS / 1000} s with output waiting for it: its machine, or the network to it, is gone`);
    onTransport(new StreamTransport(sock, sock, 'tls', watch ? { onSend: () => watch.sent() } : {}));
  });
  // A failed handshake (no client certificate, a wrong one, none within the deadline) never reaches onTransport; the socket is dropped.
  srv.on('tlsClientError', (_err, sock) => sock.destroy());
  // Before the handshake a peer has proven nothing: at most MAX_TLS_HANDSHAKES such
  // connections at once, MAX_TLS_HANDSHAKES_PER_ADDRESS of them from one address; past
  // either the new one is closed at once, before any TLS work is spent on it.
  const pending = new Map<string, number>();
  /** Each connection in its handshake, by its peer's address and port: what settles it once its handshake is done. */
  const settles = new Map<string, () => void>();
  let pendingAll = 0;
  srv.on('connection', (raw: net.Socket) => {
    const from = raw.remoteAddress ?? '?';
    const mine = pending.get(from) ?? 0;
    if (pendingAll >= MAX_TLS_HANDSHAKES || mine >= MAX_TLS_HANDSHAKES_PER_ADDRESS) {
      raw.destroy();
      return;
    }
    raw.setKeepAlive(true, TLS_KEEPALIVE_MS);
    pending.set(from, mine + 1);
    pendingAll++;
    const key = `${from} ${raw.remotePort ?? '?'}`;
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      settles.delete(key);
      pendingAll--;
      const left = (pending.get(from) ?? 1) - 1;
      if (left <= 0) pending.delete(from);
      else pending.set(from, left);
    };
    settles.set(key, settle);
    raw.once('close', settle);
  });
  srv.on('secureConnection', (sock: tls.TLSSocket) => settles.get(`${sock.remoteAddress ?? '?'} ${sock.remotePort ?? '?'}`)?.());
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(e.port, e.host, () => {
      srv.removeListener('error', reject);
      resolve();
    });
  });
  return { endpoint: e, server: srv, close: () => new Promise<void>((resolve) => srv.close(() => resolve())) };
}

/** Whether something listens on the unix socket at `socketPath` (a connection is taken): false for a file left by a process gone. */
export function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = net.createConnection({ path: socketPath });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Removes a socket file left by a dead server; refuses when a live one answers. */
async function clearStale(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  if (await socketAnswers(socketPath)) throw new Error(`a pane server is already listening on ${socketPath}`);
  fs.unlinkSync(socketPath);
}
