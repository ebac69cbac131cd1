// Golden examples of the ns/* methods, spread into test/fixtures/protocol.ts so
// the round-trip test and docs/protocol.md cover the namespace family too.
export const namespaceFixtures = {
  'ns/list': {
    params: { path: '/3' },
    result: {
      path: '/3',
      entries: [
        { name: 'tag', type: 'file', mode: 0o644, size: 0 },
        { name: 'event', type: 'file', mode: 0o644, size: 412 },
      ],
    },
  },
  'ns/stat': {
    params: { path: '/log' },
    result: { path: '/log', name: 'log', type: 'file', mode: 0o444, size: 2048, stream: true, mtime: 1_700_000_000_000, doc: 'Every pane operation, one line each.' },
  },
  'ns/open': { params: { path: '/3/event', mode: 'rw' }, result: { fid: 1, path: '/3/event', stream: true, size: 412 } },
  'ns/close': { params: { fid: 1 }, result: { fid: 1 } },
  'ns/read': {
    params: { path: '/3/body', offset: 0, count: 65536 },
    result: { data: '$ echo hi\nhi\n$', encoding: 'utf8', offset: 0, count: 14, eof: true },
  },
  'ns/write': { params: { path: '/new/ctl', data: 'htop\n' }, result: { count: 5, pane: 7, ctl: '7 main com.pane.terminal running 80x24 0,0,80,24 -' } },
} as const;
