import { describe, expect, it } from 'vitest';
import type { HostInfo } from '../../../protocol/host';
import { hostTable } from './hosts';

const host = (o: Partial<HostInfo>): HostInfo => ({ name: 'box', file: '/h/box.json', how: 'ssh box', readOnly: false, state: 'connected', error: null, remote: null, panes: 2, lastHeardMs: 500, ...o });

describe('pane host ls table', () => {
  it('says in WHY how long a stale host has been silent, so stale is not a bare word', () => {
    expect(hostTable([host({ state: 'stale', lastHeardMs: 7400 })])).toMatch(/box +ssh box +stale +2 +no answer for 7 s$/m);
  });

  it('shows no pane count while a host is being dialled (it has not said yet), rather than 0', () => {
    expect(hostTable([host({ state: 'connecting', panes: 0, lastHeardMs: null })])).toMatch(/^box +ssh box +connecting +-$/m);
  });

  it("says in WHY that a host's daemon outlived an update there, and how to run the new code", () => {
    expect(hostTable([host({ remote: { host: 'far', version: '0.1.0', codeReplaced: true } })])).toMatch(/^box +ssh box +connected +2 +its daemon runs the code it started with \(pane was updated there since\): pane stop there, then pane host connect box$/m);
  });

  it('leaves WHY empty for a connected host and gives a disconnected one its error and no pane count', () => {
    const t = hostTable([host({}), host({ name: 'vm', state: 'disconnected', error: 'the link closed: peer closed', lastHeardMs: null })]);
    expect(t).toMatch(/^box +ssh box +connected +2$/m);
    expect(t).toMatch(/^vm +ssh box +disconnected +- +the link closed: peer closed$/m);
  });
});
