// The CLI's own lean client: typed calls, events and output frames over a unix
// socket, with no zod. Loading zod and the protocol schemas costs ~70 ms of
// start-up (measured: a bundled kit Connection starts in ~170 ms vs ~100 ms for
// `node -e 0`), which alone breaks the "pane ls ≤ 1.3× node -e 0" aim. Replies
// are checked for shape by hand and results trusted for display; long-lived tools
// use the kit's validating Connection through connect.ts instead. The framing and
// the binary codec are the kit's own (both free of zod).
import type net from 'node:net';
import type { MethodName, ParamsIn, Result } from '../../protocol/index';
import { BinaryKind, decodeBinary } from '../../protocol/binary';
import type { Welcome } from '../../protocol/hello';
import { encodeFrame, FrameDecoder } from '../framing';
import { ServerError } from './errors';

export const CLI_HELLO = {
  protocol: 1,
  client: { name: 'pane-cli', kind: 'cli' },
  capabilities: ['read', 'write', 'attach', 'admin'],
} as const;

export type EventListener = (event: string, rev: number, data: unknown) => void;
export type OutputListener = (pane: number, offset: number, data: Buffer) => void;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** One conversation with a pane server, for one CLI run. */
export class WireClient {
  private readonly decoder = new FrameDecoder();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private eventCbs: EventListener[] = [];
  private outputCbs: OutputListener[] = [];
  private closeCbs: ((reason: string) => void)[] = [];
  private closedReason: string | undefined;
  welcome: Welcome | undefined;

  constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      let frames: (string | Uint8Array)[];
      try {
        frames = this.decoder.push(chunk);
      } catch (e) {
        this.closedBy(`bad framing from server: ${(e as Error).message}`);
        socket.destroy();
        return;
      }
      for (const f of frames) this.receive(f);
    });
    socket.on('error', (e) => this.closedBy(e.message));
    socket.on('close', () => this.closedBy('the server closed the connection'));
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** The server's host name, for showing ids of its own panes as plain N. */
  get host(): string {
    return this.welcome?.server.host ?? '';
  }

  /** `token`: an agent's $PANE_TOKEN, so the server acts as (and limits) that agent. */
  async hello(token?: string): Promise<Welcome> {
    const params = token === undefined ? CLI_HELLO : { ...CLI_HELLO, token };
    this.welcome = (await this.call('hello', params as unknown as ParamsIn<'hello'>)) as Welcome;
    return this.welcome;
  }

  /** A typed request; rejects with a ServerError carrying the server's code and message. */
  call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    if (this.closedReason !== undefined) return Promise.reject(new ServerError('failed', this.closedReason));
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.write(encodeFrame(JSON.stringify({ t: 'req', id, method, params })));
    });
  }

  onEvent(cb: EventListener): void {
    this.eventCbs.push(cb);
  }

  onOutput(cb: OutputListener): void {
    this.outputCbs.push(cb);
  }

  onClose(cb: (reason: string) => void): void {
    if (this.closedReason !== undefined) cb(this.closedReason);
    else this.closeCbs.push(cb);
  }

  /**
   * Ends the conversation; pending calls are rejected. Every request we care
   * about has been answered by now, so the socket is dropped at once rather than
   * half-closed: a one-shot command then exits without waiting for the server's FIN.
   */
  close(): void {
    this.closedBy('closed by the client');
    this.socket.destroy();
  }

  private receive(frame: string | Uint8Array): void {
    if (typeof frame !== 'string') {
      const f = decodeBinary(frame);
      if (typeof f === 'string' || f.kind !== BinaryKind.OUTPUT) return;
      const data = Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength);
      for (const cb of this.outputCbs) cb(f.pane, f.offset, data);
      return;
    }
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(frame) as Record<string, unknown>;
    } catch {
      return;
    }
    if (m === null || typeof m !== 'object') return;
    if (m.t === 'evt' && typeof m.event === 'string') {
      const rev = typeof m.rev === 'number' ? m.rev : 0;
      for (const cb of this.eventCbs) cb(m.event, rev, m.data);
    } else if (m.t === 'res') {
      const p = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
      if (m.ok === true) {
        if (!p) return;
        this.pending.delete(m.id as number);
        p.resolve(m.result);
        return;
      }
      const err = (m.error ?? {}) as { code?: unknown; message?: unknown; reason?: unknown; subject?: unknown };
      const fault = new ServerError(
        typeof err.code === 'string' ? err.code : 'failed',
        typeof err.message === 'string' ? err.message : 'the server reported an error without a message',
        typeof err.reason === 'string' ? err.reason : undefined,
        typeof err.subject === 'string' ? err.subject : undefined,
      );
      if (p) {
        this.pending.delete(m.id as number);
        p.reject(fault);
      } else if (m.id === null || m.id === undefined) {
        // An error about no request of ours (e.g. the server refusing the connection): fail everything waiting.
        for (const q of this.pending.values()) q.reject(fault);
        this.pending.clear();
      }
    }
  }

  private closedBy(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const p of this.pending.values()) p.reject(new ServerError('failed', reason));
    this.pending.clear();
    const cbs = this.closeCbs;
    this.closeCbs = [];
    for (const cb of cbs) cb(reason);
  }
}
