// Frames on the wire. JSON frames are requests, replies and events; terminal
// output and input travel as binary frames so bytes are never JSON-escaped.
import { z } from 'zod';
import { PaneErrorSchema } from './error';

/** Largest JSON frame a peer accepts (bytes); larger ones get `too-large`. */
export const MAX_JSON_FRAME = 4 << 20;
/** Largest binary frame a peer accepts (bytes). */
export const MAX_BINARY_FRAME = 8 << 20;

export const RequestFrameSchema = z.object({
  t: z.literal('req'),
  /** Correlates the reply; absent for fire-and-forget notes (errors still come back as events). */
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  method: z.string().max(100),
  params: z.unknown().optional(),
});
export type RequestFrame = z.infer<typeof RequestFrameSchema>;

export const ReplyFrameSchema = z.union([
  z.object({ t: z.literal('res'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ t: z.literal('res'), id: z.number().int().nullable(), ok: z.literal(false), error: PaneErrorSchema }),
]);
export type ReplyFrame = z.infer<typeof ReplyFrameSchema>;

export const EventFrameSchema = z.object({
  t: z.literal('evt'),
  event: z.string(),
  rev: z.number().int(),
  data: z.unknown(),
});
export type EventFrame = z.infer<typeof EventFrameSchema>;

export const JsonFrameSchema = z.union([RequestFrameSchema, ReplyFrameSchema, EventFrameSchema]);
export type JsonFrame = z.infer<typeof JsonFrameSchema>;

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

export function encodeBinary(f: BinaryFrame): Uint8Array {
  const out = new Uint8Array(BINARY_HEADER + f.data.byteLength);
  const dv = new DataView(out.buffer);
  dv.setUint8(0, f.kind);
  dv.setUint32(1, f.pane);
  dv.setFloat64(5, f.offset);
  out.set(f.data, BINARY_HEADER);
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
