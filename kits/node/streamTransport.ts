// The one adapter from a byte stream to a Transport, both ends: a unix or TCP socket,
// a TLS socket, a child's stdin/stdout, our own stdin/stdout (`pane serve --stdio`).
// Framing is kits/node/framing.ts; SocketTransport is this over one net.Socket.
import net from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { BaseTransport, type WireFrame } from '../client/transport';
import type { BinaryFrame } from '../protocol/binary';
import { encodeBinaryFrame, encodeFrame, FrameDecoder, FramingError, ReusedFrameReader } from './framing';
import { readIntoOwnBuffer } from './ownReads';

/** Bytes per read once a connection reads into its own buffer (libuv's own read size). */
export const OWN_READ_BYTES = 64 << 10;

export interface StreamTransportOptions {
  /**
   * Drop the stream at once on close instead of half-closing it. A one-shot client
   * has every answer it wants by then, and exits without waiting for the peer's FIN;
   * a server keeps the default so a last frame (a refusal) is flushed first.
   */
  dropOnClose?: boolean;
  /** Bytes read from the stream before the transport took it (what followed a stdio preamble). */
  head?: Buffer;
  /**
   * The last frame sent to a peer whose stream broke the framing, before it is closed
   * (the stdio door's refusal, which names the problem); none by default.
   */
  farewell?: (e: FramingError) => WireFrame;
  /** Told after each frame is handed to the stream (the TLS door's watch for a peer that vanished mid-output). */
  onSend?: () => void;
}

/** A Transport over a readable and a writable byte stream (the same object for a socket). */
export class StreamTransport extends BaseTransport {
  readonly kind: string;
  private readonly decoder = new FrameDecoder();
  private readonly dropOnClose: boolean;
  private readonly farewell: ((e: FramingError) => WireFrame) | undefined;
  private readonly onSend: (() => void) | undefined;
  private wantOwnReads = false;
  /** One stream both ways (a socket), not a pair (a child's stdout and stdin). */
  private readonly duplex: boolean;

  constructor(
    readonly input: Readable,
    readonly output: Writable,
    kind: string,
    opts: StreamTransportOptions = {},
  ) {
    super();
    this.kind = kind;
    this.dropOnClose = opts.dropOnClose ?? false;
    this.farewell = opts.farewell;
    this.onSend = opts.onSend;
    this.duplex = (input as unknown) === output;
    if (output instanceof net.Socket) output.setNoDelay?.(true);
    input.on('data', (chunk: Buffer) => this.take(chunk));
    input.on('error', (e) => this.closedBy(e.message));
    // A socket's end closes both ways by itself; a pair's does not: its writing side is let go too (what is queued on it
    // leaves first), or the peer reading it to its end (sshd, for an adopted stdio) waits on it for ever.
    const peerGone = () => (this.duplex ? this.closedBy('peer closed') : this.close('peer closed'));
    input.on('close', peerGone);
    // A stdio pair's reading side may end without 'close' being emitted by the writer: end is the peer going away.
    if (!this.duplex) {
      input.on('end', peerGone);
      output.on('error', (e) => this.closedBy(e.message));
    }
    // Before any 'data' (those come later, from the event loop): the order on the wire is kept.
    if (opts.head && opts.head.byteLength > 0) this.take(opts.head);
  }

  private take(chunk: Buffer): void {
    if (this.closed) return;
    let frames: WireFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (e) {
      this.badFraming(e);
      return;
    }
    for (const f of frames) {
      if (this.closed) return;
      this.deliver(f);
    }
    if (this.wantOwnReads) this.switchToOwnReads();
  }

  send(frame: WireFrame): void {
    if (this.closed || this.output.destroyed || this.output.writableEnded) return;
    this.output.write(encodeFrame(frame));
    this.onSend?.();
  }

  sendBinary(frame: BinaryFrame): void {
    if (this.closed || this.output.destroyed || this.output.writableEnded) return;
    this.output.write(encodeBinaryFrame(frame));
    this.onSend?.();
  }

  override buffered(): number {
    return this.output.writableLength;
  }

  /**
   * From the next read on, reads go into one buffer of this connection's, reused,
   * instead of a fresh one per read. Node allocates each read's buffer and frees it
   * only when the garbage collector gets to it, which under a flood is late: a
   * server sent 50 MiB of input held 35-48 MiB more RSS for it (200 MiB: 55),
   * whatever the input was for; a plain socket reading 200 MiB, 41 MiB, against 6
   * with a reused buffer. Frames handed to onFrame are then valid only during the
   * call (a binary frame is a view into that buffer): for a receiver that copies
   * what it keeps, as the server does. It sets what net.Socket's `onread` option
   * sets, which a server's accepted sockets cannot be given; where this Node lacks
   * it, or the input is no net.Socket (a TLS socket, a file), reads stay as they were.
   */
  reuseReadBuffer(): void {
    this.wantOwnReads = true;
  }

  override pauseReading(): void {
    this.input.pause();
  }

  override resumeReading(): void {
    this.input.resume();
  }

  private switchToOwnReads(): void {
    this.wantOwnReads = false;
    if (!(this.input instanceof net.Socket)) return;
    const reader = new ReusedFrameReader(this.decoder.pending());
    readIntoOwnBuffer(this.input, Buffer.allocUnsafe(OWN_READ_BYTES), (chunk) => {
      try {
        reader.push(chunk, (f) => this.closed || this.deliver(f));
      } catch (e) {
        this.badFraming(e);
      }
    });
  }

  private badFraming(e: unknown): void {
    if (this.farewell && e instanceof FramingError) this.send(this.farewell(e));
    this.close(`bad framing: ${(e as Error).message}`);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closedBy(reason);
    const { input, output } = this;
    if (this.dropOnClose) {
      output.destroy();
      if (!this.duplex) input.destroy();
      return;
    }
    output.end();
    setTimeout(() => {
      output.destroy();
      if (!this.duplex) input.destroy();
    }, 200).unref();
  }
}

/** Turns any byte stream (a duplex, or a readable and a writable) into a framed Transport. */
export function streamTransport(input: Readable, output: Writable, kind: string, opts?: StreamTransportOptions): StreamTransport;
export function streamTransport(duplex: Readable & Writable, kind: string, opts?: StreamTransportOptions): StreamTransport;
export function streamTransport(a: Readable, b: Writable | string, c?: string | StreamTransportOptions, d?: StreamTransportOptions): StreamTransport {
  if (typeof b === 'string') return new StreamTransport(a, a as Readable & Writable, b, (c as StreamTransportOptions | undefined) ?? {});
  return new StreamTransport(a, b, c as string, d ?? {});
}
