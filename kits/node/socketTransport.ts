// A Transport over a Node stream socket (unix domain socket or TCP), both ends:
// the stream adapter (streamTransport.ts) over one net.Socket.
import net from 'node:net';
import { StreamTransport, type StreamTransportOptions } from './streamTransport';

export { OWN_READ_BYTES } from './streamTransport';

export type SocketTransportOptions = Pick<StreamTransportOptions, 'dropOnClose'>;

export class SocketTransport extends StreamTransport {
  constructor(
    readonly socket: net.Socket,
    kind = 'unix',
    opts: SocketTransportOptions = {},
  ) {
    super(socket, socket, kind, opts);
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
