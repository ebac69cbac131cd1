// `pane top`'s frame from a server/metrics answer (the fixture every protocol test checks against its schema).
import { describe, expect, it } from 'vitest';
import { ServerMetricsSchema } from '../kits/protocol/metrics';
import { methodFixtures } from './fixtures/protocol';
import { topFrame } from '../kits/node/cli/commands/top';

const metrics = ServerMetricsSchema.parse(methodFixtures['server/metrics'].result);

describe('topFrame', () => {
  it('says on the daemon line what the heap trims after floods gave back, once there were any', () => {
    expect(topFrame(metrics, null, 1, { sort: 'cpu' })[1]).toBe('daemon: - CPU · 86M resident · 29M heap · event loop p99 20.0ms · 2 heap trims gave back 30M');
    const none = topFrame({ ...metrics, heapTrims: 0, heapTrimmedBytes: 0 }, null, 1, { sort: 'cpu' })[1];
    expect(none).toBe('daemon: - CPU · 86M resident · 29M heap · event loop p99 20.0ms');
  });
});
