// Hand-written envelope checks for the hot path. The zod schemas in envelope.ts
// stay the contract (docs, fixtures, tests hold these to them); a union parse
// per frame cost more than the rest of a round trip, so the envelope is checked
// here by hand and only the params/result/data get their zod schemas.
import type { EventFrame, ReplyFrame, RequestFrame } from './envelope';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** A request frame, or a message naming what is wrong with it. */
export function checkRequestFrame(v: unknown): RequestFrame | string {
  if (!isObj(v)) return 'a frame is a JSON object';
  if (v.t !== 'req') return `t: expected "req", received ${JSON.stringify(v.t) ?? 'nothing'}`;
  if (v.id !== undefined && !isId(v.id)) return 'id: expected a non-negative integer';
  if (typeof v.method !== 'string') return 'method: expected a string';
  if (v.method.length > 100) return 'method: longer than 100 characters';
  return v as RequestFrame;
}

/** A reply or event frame as a client receives it, or null when it is neither. */
export function checkIncomingFrame(v: unknown): ReplyFrame | EventFrame | null {
  if (!isObj(v)) return null;
  if (v.t === 'res') {
    if (v.ok === true) return isId(v.id) ? (v as ReplyFrame) : null;
    if (v.ok !== false || !(v.id === null || isId(v.id))) return null;
    const e = v.error;
    if (!isObj(e) || typeof e.code !== 'string' || typeof e.message !== 'string') return null;
    return v as ReplyFrame;
  }
  if (v.t === 'evt') {
    if (typeof v.event !== 'string' || !isId(v.rev)) return null;
    return v as EventFrame;
  }
  return null;
}
