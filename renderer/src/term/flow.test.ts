// Flow control and exactly-once output on the client side: acks are coalesced
// but never lost, duplicates after a re-attach are trimmed (and acked), and the
// WebGL budget goes to the focused and busiest visible panes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AckMeter } from '../../../kits/client/ackMeter';
import { StreamCursor } from './streamCursor';
import { chooseWebgl } from './webglBudget';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('AckMeter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('acks at once when a chunk’s worth is pending, in one ack', () => {
    const sent: number[] = [];
    const m = new AckMeter((n) => sent.push(n), 1000, 10);
    for (let i = 0; i < 10; i++) m.parsed(100);
    expect(sent).toEqual([1000]);
  });

  it('acks a small remainder after the idle time, so a quiet pane never stays unacked', () => {
    const sent: number[] = [];
    const m = new AckMeter((n) => sent.push(n), 1000, 10);
    m.parsed(5);
    m.parsed(7);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(sent).toEqual([12]);
  });

  it('forgets pending bytes on reset (the server counts afresh after a re-attach)', () => {
    const sent: number[] = [];
    const m = new AckMeter((n) => sent.push(n), 1000, 10);
    m.parsed(50);
    m.reset();
    vi.advanceTimersByTime(50);
    expect(sent).toEqual([]);
  });
});

describe('StreamCursor', () => {
  it('holds output that arrives before the attach reply and replays it from the snapshot offset', () => {
    const c = new StreamCursor();
    expect(c.hold(0, bytes('old'))).toBe(true);
    expect(c.hold(3, bytes('new'))).toBe(true);
    const held = c.start(3);
    const out = held.map((f) => c.accept(f.offset, f.data));
    expect(out.map((a) => text(a.data))).toEqual(['', 'new']);
    expect(out[0]!.dropped).toBe(3);
    expect(c.offset).toBe(6);
  });

  it('trims the overlap of a frame that straddles what was already written', () => {
    const c = new StreamCursor();
    c.start(10);
    const a = c.accept(8, bytes('abcd'));
    expect(text(a.data)).toBe('cd');
    expect(a).toMatchObject({ dropped: 2, gap: 0 });
  });

  it('reports a gap when a frame starts past the expected offset', () => {
    const c = new StreamCursor();
    c.start(0);
    expect(c.accept(5, bytes('x')).gap).toBe(5);
  });

  it('writes every byte exactly once across a re-attach', () => {
    const c = new StreamCursor();
    c.start(0);
    let screen = text(c.accept(0, bytes('hello ')).data);
    c.stop();
    c.hold(3, bytes('lo world')); // replayed from an older offset by the new attach
    for (const f of c.start(6)) screen += text(c.accept(f.offset, f.data).data);
    screen += text(c.accept(11, bytes('!')).data);
    expect(screen).toBe('hello world!');
  });
});

describe('chooseWebgl', () => {
  const c = (pane: number, activity: number, visible = true) => ({ pane, activity, visible });

  it('gives the focused pane a context first, then the busiest visible panes, within the budget', () => {
    const want = chooseWebgl([c(1, 0), c(2, 500), c(3, 900), c(4, 100), c(5, 10_000, false)], 1, 3);
    expect([...want]).toEqual([1, 3, 2]);
  });

  it('keeps a holder through a near tie so contexts do not flap', () => {
    expect([...chooseWebgl([c(2, 500), c(3, 600)], null, 1, new Set([2]))]).toEqual([2]);
    expect([...chooseWebgl([c(2, 500), c(3, 1500)], null, 1, new Set([2]))]).toEqual([3]);
  });

  it('draws twenty panes with at most the budget of contexts', () => {
    const many = Array.from({ length: 20 }, (_, i) => c(i + 1, i * 10));
    expect(chooseWebgl(many, 1).size).toBeLessThanOrEqual(4);
  });
});
