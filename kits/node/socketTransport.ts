// A Transport over a Node stream socket (unix domain socket or TCP), both ends.
import net from 'node:net';
import { BaseTransport, type WireFrame } from '../client/transport';
import { encodeFrame, FrameDecoder, ReusedFrameReader } from './framing';

/** Bytes per read once a connection reads into its own buffer (libuv's own read size). */
export const OWN_READ_BYTES = 64 << 10;

/** The parts of a net.Socket that reading into a buffer of our own reaches (Node's `onread` machinery, lib/net.js). */
type OnreadSocket = net.Socket & Record<symbol, unknown> & { _handle?: { useUserBuffer?: (b: Uint8Array) => void } | null };

export interface SocketTransportOptions {
  /**
   * Drop the socket at once on close instead of half-closing it. A one-shot client
   * has every answer it wants by then, and exits without waiting for the peer's FIN;
   * a server keeps the default so a last frame (a refusal) is flushed first.
   */
  dropOnClose?: boolean;
}

export class SocketTransport extends BaseTransport {
  readonly kind: string;
  private readonly decoder = new FrameDecoder();
  private readonly dropOnClose: boolean;
  private wantOwnReads = false;

  constructor(
    readonly socket: net.Socket,
    kind = 'unix',
    opts: SocketTransportOptions = {},
  ) {
    super();
    this.kind = kind;
    this.dropOnClose = opts.dropOnClose ?? false;
    socket.setNoDelay?.(true);
    socket.on('data', (chunk: Buffer) => {
      let frames: WireFrame[];
      try {
        frames = this.decoder.push(chunk);
      } catch (e) {
        this.close(`bad framing: ${(e as Error).message}`);
        return;
      }
      for (const f of frames) {
        if (this.closed) return;
        this.deliver(f);
      }
      if (this.wantOwnReads) this.switchToOwnReads();
    });
    socket.on('error', (e) => this.closedBy(e.message));
    socket.on('close', () => this.closedBy('peer closed'));
  }

  send(frame: WireFrame): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodeFrame(frame));
  }

  override buffered(): number {
    return this.socket.writableLength;
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
   * it, reads stay as they were.
   */
  reuseReadBuffer(): void {
    this.wantOwnReads = true;
  }

  override pauseReading(): void {
    this.socket.pause();
  }

  override resumeReading(): void {
    this.socket.resume();
  }

  private switchToOwnReads(): void {
    this.wantOwnReads = false;
    const sock = this.socket as OnreadSocket;
    const syms = Object.getOwnPropertySymbols(sock);
    const sym = (d: string) => syms.find((x) => x.description === d);
    const [kBuffer, kBufferCb, kBufferGen] = [sym('kBuffer'), sym('kBufferCb'), sym('kBufferGen')];
    const handle = sock._handle;
    if (!kBuffer || !kBufferCb || !kBufferGen || sock[kBuffer] || sock[kBufferGen] !== null || typeof handle?.useUserBuffer !== 'function') return;
    const reader = new ReusedFrameReader(this.decoder.pending());
    const buf = Buffer.allocUnsafe(OWN_READ_BYTES);
    sock[kBufferCb] = (n: number, b: Buffer) => {
      try {
        reader.push(b.subarray(0, n), (f) => this.closed || this.deliver(f));
      } catch (e) {
        this.close(`bad framing: ${(e as Error).message}`);
      }
    };
    sock[kBuffer] = buf;
    handle.useUserBuffer(buf);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closedBy(reason);
    if (this.dropOnClose) return void this.socket.destroy();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 200).unref();
  }
}

/** Connects to a unix socket path; rejects with the OS error (ENOENT, ECONNREFUSED...). */
export function connectUnix(path: string): Promise<SocketTransport> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection({ path });
    s.once('connect', () => {
      s.removeListener('error', reject);
      resolve(new SocketTransport(s, 'unix'));
    });
    s.once('error', reject);
  });
}
