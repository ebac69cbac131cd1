// Frame limits and the binary frame codec, free of zod so the CLI's one-shot
// start-up path can use them without loading the schemas.

/** Largest JSON frame a peer accepts (bytes); larger ones get `too-large`. */
export const MAX_JSON_FRAME = 4 << 20;
/** Largest binary frame a peer accepts (bytes). */
export const MAX_BINARY_FRAME = 8 << 20;

/**
 * Binary frame kinds. Layout: [kind u8][pane u32 BE][offset f64 BE][bytes...].
 * OUTPUT carries PTY bytes starting at `offset`; INPUT carries keystrokes (offset unused).
 */
export const BinaryKind = { OUTPUT: 1, INPUT: 2 } as const;
export const BINARY_HEADER = 13;

export interface BinaryFrame {
  kind: number;
  pane: number;
  offset: number;
  data: Uint8Array;
}

/**
 * The frame's bytes, with `reserve` bytes left free in front of them for a transport's
 * own framing (a stream's length prefix), so the data is copied once, not twice.
 */
export function encodeBinary(f: BinaryFrame, reserve = 0): Uint8Array {
  const out = new Uint8Array(reserve + BINARY_HEADER + f.data.byteLength);
  const dv = new DataView(out.buffer, reserve);
  dv.setUint8(0, f.kind);
  dv.setUint32(1, f.pane);
  dv.setFloat64(5, f.offset);
  out.set(f.data, reserve + BINARY_HEADER);
  return out;
}

/** Decodes a binary frame, or returns a reason it is malformed. */
export function decodeBinary(buf: Uint8Array): BinaryFrame | string {
  if (buf.byteLength < BINARY_HEADER) return `binary frame of ${buf.byteLength} bytes is shorter than its ${BINARY_HEADER}-byte header`;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const kind = dv.getUint8(0);
  if (kind !== BinaryKind.OUTPUT && kind !== BinaryKind.INPUT) return `unknown binary frame kind ${kind}`;
  const offset = dv.getFloat64(5);
  if (!Number.isSafeInteger(offset) || offset < 0) return 'binary frame offset is not a non-negative integer';
  return { kind, pane: dv.getUint32(1), offset, data: buf.subarray(BINARY_HEADER) };
}
