// The flow-control rule both sides keep: a client's ack chunk fits under the
// smallest window's low mark, and the check that holds it at load can fail.
import { describe, expect, it } from 'vitest';
import { ACK_CHUNK, FLOW_HIGH_MAX, FLOW_HIGH_MIN, flowRuleBroken, isSignalKey } from './flow';

describe('flow-control constants', () => {
  it('keep the ack chunk at most half the smallest window, and the bounds in order', () => {
    expect(ACK_CHUNK).toBeLessThanOrEqual(FLOW_HIGH_MIN / 2);
    expect(FLOW_HIGH_MIN).toBeLessThanOrEqual(FLOW_HIGH_MAX);
    expect(flowRuleBroken({ ackChunk: ACK_CHUNK, highMin: FLOW_HIGH_MIN, highMax: FLOW_HIGH_MAX })).toBeNull();
  });

  it('names the broken rule when an ack chunk would not fit under the low mark, or the bounds cross', () => {
    expect(flowRuleBroken({ ackChunk: FLOW_HIGH_MIN / 2 + 1, highMin: FLOW_HIGH_MIN, highMax: FLOW_HIGH_MAX })).toMatch(/ACK_CHUNK \(65537\) must be at most the smallest window's low mark, FLOW_HIGH_MIN \/ 2 \(65536\)/);
    expect(flowRuleBroken({ ackChunk: ACK_CHUNK, highMin: FLOW_HIGH_MAX * 2, highMax: FLOW_HIGH_MAX })).toMatch(/bounds are out of order/);
  });
});

describe('isSignalKey', () => {
  const b = (s: string) => new TextEncoder().encode(s);
  it('takes ^C, ^\\ and ^Z typed as keys', () => {
    for (const k of ['\x03', '\x1c', '\x1a', '\x1b\x03']) expect(isSignalKey(b(k))).toBe(true);
  });
  it('does not take other keys, nor a paste that holds one', () => {
    for (const k of ['a', '\r', '\x04', '\x1b[A', 'echo hi\x03\n', '']) expect(isSignalKey(b(k))).toBe(false);
  });
});
