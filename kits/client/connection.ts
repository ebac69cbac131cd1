// A client's end of one conversation with a pane server, over any Transport:
// typed calls correlated by id, events by name, terminal output as binary frames.
// Zod-free, so the CLI's one-shot path loads it too; a client that wants every
// result checked against its schema passes `checkResult` (kits/client/checkResults.ts).
import { BinaryKind, decodeBinary, MAX_JSON_FRAME } from '../protocol/binary';
import type { ErrorCode } from '../protocol/error';
import { isStoppedFault, PaneFault } from '../protocol/fault';
import { checkIncomingFrame } from '../protocol/frameCheck';
import type { HelloParams, Welcome } from '../protocol/hello';
import type { MethodName, ParamsIn, Result } from '../protocol/index';
import { MIN_PROTOCOL_VERSION, PROTOCOL_FEATURES, PROTOCOL_VERSION } from '../protocol/version';
import { Handler } from './handler';
import { sendBinary, type Transport, type WireFrame } from './transport';

export type OutputCallback = (pane: number, offset: number, data: Uint8Array) => void;
/** Every event, whatever its name (a CLI printing a stream, a recorder). */
export type AnyEventCallback = (event: string, rev: number, data: unknown) => void;
/** Returns the result as the caller should see it, or throws a PaneFault naming what is malformed. */
export type ResultCheck = (method: MethodName, result: unknown) => unknown;

interface Pending {
  method: MethodName;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  inOrder: ((v: unknown) => void) | undefined;
}

export interface CallOptions<M extends MethodName> {
  /**
   * Called with the reply's result (checked, when results are) as the reply is read,
   * before any frame after it: state a reply carries (a subscription's snapshot, a
   * list kept up by events) meets the events after it with no gap and no overlap.
   * A promise's continuation runs only after the rest of the frames read with it,
   * so an event right behind the reply would otherwise be applied first and then
   * overwritten by the older state. A throw here rejects the call with it.
   */
  inOrder?: (result: Result<M>) => void;
}

export interface ConnectionOptions {
  /** Checks each reply's result (default: trusted as sent). */
  checkResult?: ResultCheck;
}

/** One conversation with a server over any transport. */
export class Connection {
  /** Events by name: `events.on('layout/changed', …)`. */
  readonly events = new Handler();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private outputCbs: OutputCallback[] = [];
  private anyEventCbs: AnyEventCallback[] = [];
  private closeCbs: ((reason: string) => void)[] = [];
  private errorCbs: ((e: PaneFault) => void)[] = [];
  private closedReason: string | undefined;
  /** The server's word that a client stopped it (fault.ts's stoppedFault), sent just before it closes: why this connection closed, in place of the transport's "peer closed". */
  private stoppedWord: string | undefined;
  private readonly checkResult: ResultCheck | undefined;
  welcome: Welcome | undefined;

  constructor(
    readonly transport: Transport,
    opts: ConnectionOptions = {},
  ) {
    this.checkResult = opts.checkResult;
    transport.onFrame((f) => this.receive(f));
    transport.onClose((reason) => this.closedBy(reason));
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** The server's host name (from its welcome), for showing its own panes' ids as plain N. */
  get host(): string {
    return this.welcome?.server.host ?? '';
  }

  /** Opens the conversation; must precede any other call. */
  async hello(p: Omit<HelloParams, 'protocol'> & { protocol?: number }): Promise<Welcome> {
    // The one number for servers before ranges; the range and features for the rest (negotiate.ts).
    this.welcome = await this.call('hello', { protocol: PROTOCOL_VERSION, protocols: [MIN_PROTOCOL_VERSION, PROTOCOL_VERSION], features: [...PROTOCOL_FEATURES], ...p });
    return this.welcome;
  }

  /** A typed request; rejects with a PaneFault carrying the server's code and message. */
  call<M extends MethodName>(method: M, params: ParamsIn<M>, o: CallOptions<M> = {}): Promise<Result<M>> {
    if (this.closedReason !== undefined) return Promise.reject(closedFault(this.closedReason));
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, inOrder: o.inOrder as ((v: unknown) => void) | undefined });
      this.transport.send(JSON.stringify({ t: 'req', id, method, params }));
    });
  }

  /** A request with no reply wanted (errors still arrive via onError). */
  notify<M extends MethodName>(method: M, params: ParamsIn<M>): void {
    if (this.closedReason === undefined) this.transport.send(JSON.stringify({ t: 'req', method, params }));
  }

  /** Keystrokes or pasted bytes to a pane's PTY, as a binary frame. */
  sendInput(pane: number, data: Uint8Array): void {
    if (this.closedReason === undefined) sendBinary(this.transport, { kind: BinaryKind.INPUT, pane, offset: 0, data });
  }

  /** Terminal output of attached panes; returns a function that removes the callback. */
  onOutput(cb: OutputCallback): () => void {
    this.outputCbs.push(cb);
    return () => {
      this.outputCbs = this.outputCbs.filter((f) => f !== cb);
    };
  }

  /** Every event, before the by-name table; returns a function that removes the callback. */
  onEvent(cb: AnyEventCallback): () => void {
    this.anyEventCbs.push(cb);
    return () => {
      this.anyEventCbs = this.anyEventCbs.filter((f) => f !== cb);
    };
  }

  onClose(cb: (reason: string) => void): void {
    if (this.closedReason !== undefined) cb(this.closedReason);
    else this.closeCbs.push(cb);
  }

  /** Errors the server sent without a request to answer (e.g. for a notify or a bad frame); returns a function that removes the callback. */
  onError(cb: (e: PaneFault) => void): () => void {
    this.errorCbs.push(cb);
    return () => {
      this.errorCbs = this.errorCbs.filter((f) => f !== cb);
    };
  }

  /** Ends the conversation; calls still waiting are rejected. */
  close(): void {
    this.transport.close('closed by the client');
    this.closedBy('closed by the client');
  }

  private receive(frame: WireFrame): void {
    if (typeof frame !== 'string') {
      const b = decodeBinary(frame);
      if (typeof b === 'string' || b.kind !== BinaryKind.OUTPUT) return;
      for (const cb of this.outputCbs) cb(b.pane, b.offset, b.data);
      return;
    }
    if (frame.length > MAX_JSON_FRAME) return this.oversized(frame);
    let parsed: unknown;
    try {
      parsed = JSON.parse(frame);
    } catch {
      return;
    }
    const m = checkIncomingFrame(parsed);
    if (!m) return;
    if (m.t === 'evt') {
      for (const cb of this.anyEventCbs) cb(m.event, m.rev, m.data);
      this.events.dispatch(m.event, m.data, m.rev);
      return;
    }
    const p = m.id === null ? undefined : this.pending.get(m.id);
    if (p) this.pending.delete(m.id as number);
    if (!m.ok) {
      const fault = faultOf(m.error);
      if (p) p.reject(fault);
      else this.unanswered(fault);
    } else if (p) {
      this.settle(p, m.result);
    }
  }

  /**
   * A JSON frame past MAX_JSON_FRAME is not parsed (a peer's bound on what it holds),
   * but never dropped in silence: the call it answers (its id is at the frame's head)
   * fails with `too-large`, and anything else reaches onError. A pane server refuses
   * such replies itself; this is for one that does not.
   */
  private oversized(frame: string): void {
    const id = /^\{"t":"res","id":(\d+)[,}]/.exec(frame.slice(0, 40))?.[1];
    const p = id === undefined ? undefined : this.pending.get(Number(id));
    const what = p ? `the reply to ${p.method}` : 'a frame from the server';
    const fault = new PaneFault('too-large', `${what} is ${frame.length} characters, over the ${MAX_JSON_FRAME}-byte frame limit; it was not read. Ask for less, or remove what makes it large`, p ? { subject: p.method } : {});
    if (p) {
      this.pending.delete(Number(id));
      p.reject(fault);
    } else this.unanswered(fault);
  }

  private settle(p: Pending, result: unknown): void {
    let v = result;
    try {
      if (this.checkResult) v = this.checkResult(p.method, result);
      p.inOrder?.(v);
    } catch (e) {
      return p.reject(e);
    }
    p.resolve(v);
  }

  /**
   * An error about no request of ours. Before the welcome it is the server refusing
   * the conversation (too many connections, a bad token): every waiting call fails with it.
   */
  private unanswered(fault: PaneFault): void {
    if (isStoppedFault(fault)) this.stoppedWord = fault.message;
    if (this.welcome === undefined) {
      for (const q of this.pending.values()) q.reject(fault);
      this.pending.clear();
    }
    for (const cb of this.errorCbs) cb(fault);
  }

  private closedBy(closing: string): void {
    if (this.closedReason !== undefined) return;
    const reason = this.stoppedWord ?? closing;
    this.closedReason = reason;
    for (const p of this.pending.values()) p.reject(closedFault(reason));
    this.pending.clear();
    const cbs = this.closeCbs;
    this.closeCbs = [];
    for (const cb of cbs) cb(reason);
  }
}

/** What a call on a closed conversation rejects with (FUSE maps it to ENOTCONN by its prefix). */
function closedFault(reason: string): PaneFault {
  return new PaneFault('failed', `connection closed: ${reason}`, { reason });
}

/** The server's error as a PaneFault; fields of the wrong type (a buggy or hostile peer) are left out. */
function faultOf(e: { code: string; message: string; reason?: unknown; subject?: unknown }): PaneFault {
  const opts: { reason?: string; subject?: string } = {};
  if (typeof e.reason === 'string') opts.reason = e.reason;
  if (typeof e.subject === 'string') opts.subject = e.subject;
  return new PaneFault(e.code as ErrorCode, e.message, opts);
}
