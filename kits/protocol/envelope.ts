// Frames on the wire. JSON frames are requests, replies and events; terminal
// output and input travel as binary frames so bytes are never JSON-escaped.
import { z } from 'zod';
import { PaneErrorSchema } from './error';
import { lazySchema } from './lazySchema';

export { MAX_JSON_FRAME, MAX_BINARY_FRAME, BinaryKind, BINARY_HEADER, encodeBinary, decodeBinary, type BinaryFrame } from './binary';

export const RequestFrameSchema = lazySchema(() => z.object({
  t: z.literal('req'),
  /** Correlates the reply; absent for fire-and-forget notes (errors still come back as events). */
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  method: z.string().max(100),
  params: z.unknown().optional(),
}));
export type RequestFrame = z.infer<typeof RequestFrameSchema>;

export const ReplyFrameSchema = lazySchema(() => z.union([
  z.object({ t: z.literal('res'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ t: z.literal('res'), id: z.number().int().nullable(), ok: z.literal(false), error: PaneErrorSchema }),
]));
export type ReplyFrame = z.infer<typeof ReplyFrameSchema>;

export const EventFrameSchema = lazySchema(() => z.object({
  t: z.literal('evt'),
  event: z.string(),
  rev: z.number().int().min(0),
  data: z.unknown(),
}));
export type EventFrame = z.infer<typeof EventFrameSchema>;

export const JsonFrameSchema = lazySchema(() => z.union([RequestFrameSchema, ReplyFrameSchema, EventFrameSchema]));
export type JsonFrame = z.infer<typeof JsonFrameSchema>;
