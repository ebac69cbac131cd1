// Stream framing for byte-stream transports (unix socket, TCP, SSH stdio):
// [u32 BE length of what follows][u8 kind: 0 = JSON text, 1 = binary][payload].
import { MAX_BINARY_FRAME, MAX_JSON_FRAME } from '../protocol/binary';
import type { WireFrame } from '../client/transport';

const KIND_JSON = 0;
const KIND_BINARY = 1;
/** Largest length prefix accepted before the payload is even read. */
export const MAX_STREAM_FRAME = Math.max(MAX_JSON_FRAME, MAX_BINARY_FRAME) + 1;

export function encodeFrame(frame: WireFrame): Buffer {
  const body = typeof frame === 'string' ? Buffer.from(frame, 'utf8') : frame;
  const out = Buffer.allocUnsafe(5 + body.byteLength);
  out.writeUInt32BE(body.byteLength + 1, 0);
  out.writeUInt8(typeof frame === 'string' ? KIND_JSON : KIND_BINARY, 4);
  out.set(body, 5);
  return out;
}

/** Incremental decoder; `push` returns frames, or throws a message naming the problem. */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): WireFrame[] {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    const out: WireFrame[] = [];
    while (this.size >= 4) {
      const head = this.peek(4);
      const len = head.readUInt32BE(0);
      if (len < 1) throw new Error('frame length 0: every frame has at least its kind byte');
      if (len > MAX_STREAM_FRAME) throw new Error(`frame of ${len} bytes is over the ${MAX_STREAM_FRAME}-byte limit`);
      if (this.size < 4 + len) break;
      const all = this.take(4 + len);
      const kind = all[4];
      const payload = all.subarray(5);
      if (kind === KIND_JSON) out.push(payload.toString('utf8'));
      else if (kind === KIND_BINARY) out.push(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
      else throw new Error(`unknown frame kind ${kind}`);
    }
    return out;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.byteLength >= n) return this.chunks[0]!;
    const b = Buffer.concat(this.chunks);
    this.chunks = [b];
    return b;
  }

  private take(n: number): Buffer {
    const b = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const head = b.subarray(0, n);
    const rest = b.subarray(n);
    this.chunks = rest.byteLength > 0 ? [rest] : [];
    this.size = rest.byteLength;
    return head;
  }
}
