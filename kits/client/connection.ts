// A client's end of one conversation with a pane server: typed calls correlated
// by id, events through its Handler table, terminal output as binary frames.
import { BinaryKind, decodeBinary, encodeBinary, MAX_JSON_FRAME } from '../protocol/binary';
import { checkIncomingFrame } from '../protocol/frameCheck';
import { PaneFault } from '../protocol/error';
import { PROTOCOL_VERSION, type HelloParams, type Welcome } from '../protocol/hello';
import { methods, type MethodName, type ParamsIn, type Result } from '../protocol/index';
import { Handler } from './handler';
import type { Transport, WireFrame } from './transport';

export type OutputCallback = (pane: number, offset: number, data: Uint8Array) => void;

interface Pending {
  method: MethodName;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export interface ConnectionOptions {
  /** Validate every reply's result against its schema (default true). */
  validateResults?: boolean;
}

/** One conversation with a server over any transport. */
export class Connection {
  /** Events arrive here; add handlers with `events.on(...)`. */
  readonly events = new Handler();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private outputCbs: OutputCallback[] = [];
  private closeCbs: ((reason: string) => void)[] = [];
  private errorCbs: ((e: PaneFault) => void)[] = [];
  private closedReason: string | undefined;
  private readonly validate: boolean;
  welcome: Welcome | undefined;

  constructor(
    readonly transport: Transport,
    opts: ConnectionOptions = {},
  ) {
    this.validate = opts.validateResults ?? true;
    transport.onFrame((f) => this.receive(f));
    transport.onClose((reason) => this.closedBy(reason));
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Opens the conversation; must precede any other call. */
  async hello(p: Omit<HelloParams, 'protocol'> & { protocol?: number }): Promise<Welcome> {
    this.welcome = await this.call('hello', { protocol: PROTOCOL_VERSION, ...p });
    return this.welcome;
  }

  /** A typed request; rejects with a PaneFault carrying the server's typed error. */
  call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    if (this.closedReason !== undefined) {
      return Promise.reject(new PaneFault('failed', `connection closed: ${this.closedReason}`, { reason: this.closedReason }));
    }
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.transport.send(JSON.stringify({ t: 'req', id, method, params }));
    });
  }

  /** A request with no reply wanted (errors still arrive via onError). */
  notify<M extends MethodName>(method: M, params: ParamsIn<M>): void {
    if (this.closedReason === undefined) this.transport.send(JSON.stringify({ t: 'req', method, params }));
  }

  /** Keystrokes or pasted bytes to a pane's PTY, as a binary frame. */
  sendInput(pane: number, data: Uint8Array): void {
    if (this.closedReason === undefined) this.transport.send(encodeBinary({ kind: BinaryKind.INPUT, pane, offset: 0, data }));
  }

  onOutput(cb: OutputCallback): () => void {
    this.outputCbs.push(cb);
    return () => {
      this.outputCbs = this.outputCbs.filter((f) => f !== cb);
    };
  }

  onClose(cb: (reason: string) => void): void {
    if (this.closedReason !== undefined) cb(this.closedReason);
    else this.closeCbs.push(cb);
  }

  /** Errors the server sent without a request to answer (e.g. for a note or a bad frame). */
  onError(cb: (e: PaneFault) => void): void {
    this.errorCbs.push(cb);
  }

  close(): void {
    this.transport.close('client closed');
  }

  private receive(frame: WireFrame): void {
    if (typeof frame !== 'string') {
      const b = decodeBinary(frame);
      if (typeof b === 'string' || b.kind !== BinaryKind.OUTPUT) return;
      for (const cb of this.outputCbs) cb(b.pane, b.offset, b.data);
      return;
    }
    if (frame.length > MAX_JSON_FRAME) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(frame);
    } catch {
      return;
    }
    const m = checkIncomingFrame(parsed);
    if (!m) return;
    if (m.t === 'evt') {
      this.events.dispatch(m.event, m.data, m.rev);
    } else if (m.t === 'res') {
      const p = m.id === null ? undefined : this.pending.get(m.id);
      if (!p) {
        if (!m.ok) for (const cb of this.errorCbs) cb(new PaneFault(m.error.code, m.error.message, m.error));
        return;
      }
      this.pending.delete(m.id as number);
      if (!m.ok) {
        p.reject(new PaneFault(m.error.code, m.error.message, m.error));
      } else if (this.validate) {
        const r = methods[p.method].result.safeParse(m.result);
        if (r.success) p.resolve(r.data);
        else p.reject(new PaneFault('failed', `server sent a malformed ${p.method} result: ${r.error.issues[0]?.message ?? ''}`));
      } else {
        p.resolve(m.result);
      }
    }
  }

  private closedBy(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const p of this.pending.values()) p.reject(new PaneFault('failed', `connection closed: ${reason}`, { reason }));
    this.pending.clear();
    for (const cb of this.closeCbs) cb(reason);
    this.closeCbs = [];
  }
}
