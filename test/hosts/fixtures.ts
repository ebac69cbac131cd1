// Golden messages of the host family (issue 26), spread into test/fixtures/protocol.ts.

/** A pane of the joined host devbox, as host/list gives it (HOST:N with HOST the file's name). */
const pane = {
  n: 2,
  uuid: '2d8e3f74-9c65-4e3a-9f4c-7b8f9fabd2c3',
  host: 'devbox',
  session: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a',
  signature: 'com.pane.terminal',
  kind: 'terminal',
  tag: { name: 'bash', commands: ['close'], user: '' },
  vocabulary: [],
  owner: 'ada',
  cwd: '/home/ada',
  launch: null,
  pid: 5151,
  pgid: 5151,
  state: 'running',
  exit: null,
  cols: 80,
  rows: 24,
  attrs: {},
  createdAt: 1_700_000_000_000,
} as const;

const info = {
  name: 'devbox',
  file: '/home/ada/.config/pane/hosts/devbox.json',
  how: 'ssh ada@devbox.example:22',
  readOnly: false,
  state: 'connected',
  error: null,
  remote: { host: 'devbox', version: '0.9.0' },
  panes: 2,
  lastHeardMs: 420,
} as const;
const list = { hosts: [info], errors: [{ file: '/home/ada/.config/pane/hosts/vm.json', field: 'how.destination', message: 'a destination is host or user@host' }] };

export const hostMethodFixtures = {
  'host/list': { params: { panes: true }, result: { ...list, panes: [pane] } },
  'host/connect': { params: { name: 'devbox' }, result: info },
  'host/show': { params: { remote: 'devbox:2', pane: 1, direction: 'horizontal', float: false }, result: { session: pane.session, pane: 4, id: 'laptop:4' } },
  'host/disconnect': { params: { name: 'devbox' }, result: { ...info, state: 'disconnected', remote: null, lastHeardMs: null } },
} as const;

export const hostEventFixtures = {
  'host/changed': list,
  'host/pane': { host: 'devbox', event: 'pane/changed', id: 'devbox:2', pane },
} as const;
