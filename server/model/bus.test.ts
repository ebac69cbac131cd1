import { describe, expect, it } from 'vitest';
import { EventBus } from './bus';

describe('EventBus', () => {
  it('stamps each event with the next rev and hands it to every subscriber until it unsubscribes', () => {
    const bus = new EventBus();
    const seen: [string, number][] = [];
    const off = bus.subscribe((e, _d, rev) => seen.push([e, rev]));
    expect(bus.publish('pane/output', { pane: 1, end: 5 })).toBe(1);
    off();
    expect(bus.publish('pane/output', { pane: 1, end: 9 })).toBe(2);
    expect(seen).toEqual([['pane/output', 1]]);
    expect(bus.rev).toBe(2);
  });

  it('puts an event on the wire before an observer can answer it with a later one', () => {
    const bus = new EventBus();
    const wire: number[] = [];
    // The observer subscribes first and publishes in answer: the wire must still see rev 1 before rev 2.
    bus.subscribe((e) => {
      if (e === 'pane/output') bus.publish('client/refused', { door: 'd', reason: 'r' });
    });
    bus.subscribe((_e, _d, rev) => wire.push(rev), { wire: true });
    bus.publish('pane/output', { pane: 1, end: 5 });
    expect(wire).toEqual([1, 2]);
  });
});
