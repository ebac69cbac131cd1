import { describe, expect, it } from 'vitest';
import { EventFrameSchema, ReplyFrameSchema, RequestFrameSchema } from './envelope';
import { checkIncomingFrame, checkRequestFrame } from './frameCheck';

// The hand-written checks must accept exactly what the zod envelope schemas accept.
const samples: unknown[] = [
  { t: 'req', id: 1, method: 'pane/list', params: {} },
  { t: 'req', method: 'pty/ack', params: { pane: 1, bytes: 3 } },
  { t: 'req', id: -1, method: 'x' },
  { t: 'req', id: 1.5, method: 'x' },
  { t: 'req', id: 1, method: 7 },
  { t: 'req', id: 1, method: 'x'.repeat(101) },
  { t: 'res', id: 1, ok: true, result: {} },
  { t: 'res', id: null, ok: false, error: { code: 'failed', message: 'no' } },
  { t: 'res', id: 2, ok: false, error: { code: 'failed' } },
  { t: 'res', id: 'x', ok: true, result: 1 },
  { t: 'evt', event: 'pane/closed', rev: 3, data: {} },
  { t: 'evt', event: 'pane/closed', rev: -3, data: {} },
  { t: 'evt', rev: 3 },
  [],
  null,
  'req',
  { t: 'nope' },
];

describe('hand-written envelope checks', () => {
  for (const s of samples) {
    it(`agree with the zod envelope on ${JSON.stringify(s)?.slice(0, 60)}`, () => {
      expect(typeof checkRequestFrame(s) !== 'string').toBe(RequestFrameSchema.safeParse(s).success);
      const incoming = ReplyFrameSchema.safeParse(s).success || EventFrameSchema.safeParse(s).success;
      // The zod reply schema also checks error codes against the enum; the hot-path check
      // accepts any code string (a newer server's code must not make a reply vanish).
      if (incoming) expect(checkIncomingFrame(s)).not.toBeNull();
      else if (!(typeof s === 'object' && s !== null && (s as { t?: string }).t === 'res' && (s as { ok?: boolean }).ok === false)) {
        expect(checkIncomingFrame(s)).toBeNull();
      }
    });
  }
});
