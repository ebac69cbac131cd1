// Stream framing for byte-stream transports (unix socket, TCP, SSH stdio):
// [u32 BE length of what follows][u8 kind: 0 = JSON text, 1 = binary][payload].
import { encodeBinary, MAX_BINARY_FRAME, MAX_JSON_FRAME, type BinaryFrame } from '../protocol/binary';
import type { WireFrame } from '../client/transport';

const KIND_JSON = 0;
const KIND_BINARY = 1;
/** Largest length prefix accepted before the payload is even read. */
export const MAX_STREAM_FRAME = Math.max(MAX_JSON_FRAME, MAX_BINARY_FRAME) + 1;

/** A byte stream that broke the framing: its message names how, its code is the refusal's. */
export class FramingError extends Error {
  constructor(
    readonly code: 'too-large' | 'bad-request',
    message: string,
  ) {
    super(message);
  }
}

/** Bytes in front of every frame on a stream: its length (u32 BE) and its kind (u8). */
export const STREAM_HEAD = 5;

export function encodeFrame(frame: WireFrame): Buffer {
  if (typeof frame === 'string') {
    // Encoded straight into the frame: one pass over the text, no intermediate buffer.
    const out = Buffer.allocUnsafe(STREAM_HEAD + Buffer.byteLength(frame, 'utf8'));
    out.write(frame, STREAM_HEAD, 'utf8');
    return putHead(out, KIND_JSON);
  }
  const out = Buffer.allocUnsafe(STREAM_HEAD + frame.byteLength);
  out.set(frame, STREAM_HEAD);
  return putHead(out, KIND_BINARY);
}

/** Writes a frame's stream head into its first STREAM_HEAD bytes: the length of what follows the length, and the kind. */
function putHead<T extends Uint8Array>(out: T, kind: number): T {
  const dv = new DataView(out.buffer, out.byteOffset, STREAM_HEAD);
  dv.setUint32(0, out.byteLength - 4);
  dv.setUint8(4, kind);
  return out;
}

/**
 * A binary frame (output, keys) as it goes on a stream, built in one buffer: the data
 * is copied once, where encodeBinary and then encodeFrame copied it twice (a stream of
 * output paid two allocations and two copies per 64 KiB, and the garbage of both).
 */
export function encodeBinaryFrame(f: BinaryFrame): Uint8Array {
  return putHead(encodeBinary(f, STREAM_HEAD), KIND_BINARY);
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
      if (len < 1) throw new FramingError('bad-request', 'frame length 0: every frame has at least its kind byte');
      if (len > MAX_STREAM_FRAME) throw new FramingError('too-large', `a frame of ${len} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME)`);
      if (this.size < 4 + len) break;
      const all = this.take(4 + len);
      const kind = all[4];
      const payload = all.subarray(5);
      if (kind === KIND_JSON) out.push(payload.toString('utf8'));
      else if (kind === KIND_BINARY) out.push(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
      else throw new FramingError('bad-request', `unknown frame kind ${kind}`);
    }
    return out;
  }

  /** The bytes held of a frame not yet complete (for a reader taking over). */
  pending(): Buffer {
    return Buffer.concat(this.chunks);
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

/**
 * Frames from reads into a buffer the caller reuses (SocketTransport's own reads):
 * whole frames in a read are handed on as they lie (a binary frame is a view, valid
 * only during the callback); only a frame cut by the end of a read is copied, into
 * one assembly buffer kept for the next frames and given back after ASSEMBLY_IDLE_MS.
 * So reading allocates nothing per read or per frame, and a flood of input leaves no
 * garbage of buffers behind for the collector to find late.
 */
export class ReusedFrameReader {
  private asm: Buffer = Buffer.alloc(0);
  /** Bytes of a cut frame held in `asm`. */
  private have = 0;
  private idle: NodeJS.Timeout | null = null;

  /** Starts with bytes an earlier decoder held (a frame begun before the switch). */
  constructor(pending?: Buffer) {
    if (pending && pending.byteLength > 0) this.keep(pending);
  }

  /** Hands `deliver` every frame completed by `chunk`; throws a message naming a framing error. */
  push(chunk: Buffer, deliver: (f: WireFrame) => void): void {
    let at = 0;
    if (this.have > 0) {
      // Finish the cut frame: its header first, then its body.
      if (this.have < 4) {
        const n = Math.min(4 - this.have, chunk.byteLength);
        this.append(chunk.subarray(0, n));
        at = n;
        if (this.have < 4) return;
      }
      const total = 4 + frameLength(this.asm);
      const n = Math.min(total - this.have, chunk.byteLength - at);
      this.append(chunk.subarray(at, at + n));
      at += n;
      if (this.have < total) return;
      this.have = 0;
      deliver(frameOf(this.asm.subarray(0, total)));
      this.idleSoon();
    }
    while (chunk.byteLength - at >= 4) {
      const total = 4 + frameLength(chunk.subarray(at));
      if (chunk.byteLength - at < total) break;
      deliver(frameOf(chunk.subarray(at, at + total)));
      at += total;
    }
    if (at < chunk.byteLength) this.keep(chunk.subarray(at));
  }

  private keep(bytes: Buffer): void {
    this.have = 0;
    this.append(bytes);
  }

  private append(bytes: Buffer): void {
    this.reserve(this.have + bytes.byteLength);
    bytes.copy(this.asm, this.have);
    this.have += bytes.byteLength;
    // Once the header is in, room for the whole frame: it is copied in once.
    if (this.have >= 4) this.reserve(4 + frameLength(this.asm));
  }

  private reserve(size: number): void {
    if (size <= this.asm.byteLength) return;
    const bigger = Buffer.allocUnsafe(size);
    this.asm.copy(bigger, 0, 0, this.have);
    this.asm = bigger;
  }

  /** A large assembly buffer is kept while frames keep coming, and given back when they stop. */
  private idleSoon(): void {
    if (this.asm.byteLength <= ASSEMBLY_KEEP) return;
    if (this.idle) return void this.idle.refresh();
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.have === 0) this.asm = Buffer.alloc(0);
    }, ASSEMBLY_IDLE_MS);
    this.idle.unref();
  }
}

/** An assembly buffer up to this size is kept for good (most frames are far smaller). */
const ASSEMBLY_KEEP = 128 << 10;
/** A larger one (a big paste, a large request) is given back after this long without a cut frame. */
const ASSEMBLY_IDLE_MS = 1_000;

/** The length prefix at the head of `b`, checked. */
function frameLength(b: Buffer): number {
  const len = b.readUInt32BE(0);
  if (len < 1) throw new FramingError('bad-request', 'frame length 0: every frame has at least its kind byte');
  if (len > MAX_STREAM_FRAME) throw new FramingError('too-large', `a frame of ${len} bytes is over the ${MAX_STREAM_FRAME}-byte limit (MAX_STREAM_FRAME)`);
  return len;
}

/** One whole frame (prefix included) as a WireFrame: JSON decoded to a string, binary as a view. */
function frameOf(all: Buffer): WireFrame {
  const kind = all[4];
  const payload = all.subarray(5);
  if (kind === KIND_JSON) return payload.toString('utf8');
  if (kind === KIND_BINARY) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  throw new FramingError('bad-request', `unknown frame kind ${kind}`);
}
