// The hello's agreement: the highest shared protocol, the shared features, an old
// client's single number, and a message naming both versions and the fix.
import { describe, expect, it } from 'vitest';
import { negotiate } from './negotiate';

const us = { min: 2, max: 3, features: ['version-range', 'hosts'], version: '0.3.0', host: 'box' };

describe('negotiate', () => {
  it('picks the highest protocol both speak and the features both have', () => {
    expect(negotiate({ protocol: 4, protocols: [1, 4], features: ['hosts', 'echo'] }, us)).toEqual({ protocol: 3, features: ['hosts'] });
  });

  it("takes an old client's single number as [n, n]", () => {
    expect(negotiate({ protocol: 2 }, us)).toEqual({ protocol: 2, features: [] });
  });

  it('names both versions and tells an old client to upgrade itself', () => {
    expect(negotiate({ protocol: 1, version: '0.1.0' }, us)).toBe('client (pane 0.1.0) speaks protocol 1; this server (pane 0.3.0 on box) speaks 2..3: install pane 0.3.0 where the client runs (the same package as here: docs/install.md)');
  });

  it('names both versions and tells a newer client to upgrade the host', () => {
    expect(negotiate({ protocol: 5, protocols: [4, 5], version: '0.9.0' }, us)).toBe('client (pane 0.9.0) speaks protocol 4..5; this server (pane 0.3.0 on box) speaks 2..3: upgrade pane on box: from the client\'s machine, pane host install NAME (NAME its host file there), or install pane 0.9.0 on box as you installed it here');
  });
});
