// A Transport over a Node stream socket (unix domain socket or TCP), both ends.
import net from 'node:net';
import { BaseTransport, type WireFrame } from '../client/transport';
import { encodeFrame, FrameDecoder } from './framing';

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
