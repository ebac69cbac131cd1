// Golden examples of the agent family (kits/protocol/agent.ts), merged into
// test/fixtures/protocol.ts so the round-trip test and docs/protocol.md see them.
const uuid = '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a';
const paneAck = { session: uuid, pane: 3, id: 'devbox:3' };

export const agentInfo = {
  name: 'ada',
  account: true,
  home: '/home/me/.local/share/pane/agents/ada',
  app: 'claude',
  project: '/home/me/src/shop',
  state: 'waiting',
  since: 1_700_000_000_000,
  source: 'hooks',
  panes: [{ pane: 3, id: 'devbox:3', quadrant: 'top-left', state: 'waiting', since: 1_700_000_000_000, cwd: '/home/me/src/shop', worktree: null }],
  sessions: [],
  lastPrompt: 'fix the login redirect',
  lastPromptAt: 1_699_999_990_000,
  topics: ['auth', 'jwt'],
  claims: ['src/auth/login.ts'],
  unread: 1,
  plan: 'Making login redirect back to where you were.\n',
} as const;

const mail = { id: '1700000000000.P42Q1.devbox', from: 'me', to: 'ada', subject: 'review this PR', date: 1_700_000_000_000, body: 'PR 12 please\n', seen: false };

export const agentMethodFixtures = {
  'agent/list': { params: {}, result: { agents: [agentInfo] } },
  'agent/get': { params: { name: 'ada' }, result: agentInfo },
  'agent/add': { params: { name: 'ada', app: 'claude', project: '/home/me/src/shop', access: { panes: { write: ['self', 'sig:com.pane.terminal'] } } }, result: agentInfo },
  'agent/remove': { params: { name: 'ada', purge: false }, result: { name: 'ada', home: '/home/me/.local/share/pane/agents/ada', kept: true } },
  'agent/access': {
    params: { name: 'ada' },
    result: {
      name: 'ada',
      file: '/home/me/.local/share/pane/agents/ada/.access',
      access: {
        version: 1,
        capabilities: ['read', 'write', 'attach'],
        panes: { read: ['*'], write: ['self'] },
        namespace: { read: ['/pane/**'], write: ['/pane/self/**'] },
        commands: { allow: ['*'], deny: ['server/stop', 'client/permission', 'agent/add', 'agent/remove', 'grant/*'] },
      },
      errors: [],
      summary: ['capabilities: read, write, attach', 'write panes:  self'],
    },
  },
  'agent/plan': { params: { name: 'ada', text: 'Reviewing PR 12.\n' }, result: { name: 'ada', plan: 'Reviewing PR 12.\n' } },
  'agent/mail': { params: { to: 'ada', subject: 'review this PR', body: 'PR 12 please\n', deliver: true }, result: { id: mail.id, to: 'ada', unread: 1, typed: 'queued' } },
  'agent/inbox': { params: { name: 'ada' }, result: { name: 'ada', messages: [mail] } },
  'agent/hook': {
    params: { input: { session_id: 'abc123', cwd: '/home/me/src/shop', hook_event_name: 'UserPromptSubmit', prompt: 'fix the login redirect' }, pane: 'devbox:3', agent: 'ada' },
    result: { agent: 'ada', state: 'working', output: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'You have 1 new message…' } } },
  },
  'agent/write': { params: { to: 'ada', text: 'use the staging database' }, result: { from: 'me', to: 'ada', pane: 3 } },
  'agent/launch': { params: { app: 'demo-agent', direction: 'vertical' }, result: { ...paneAck, agent: 'bob' } },
  'agent/open': { params: { pane: 3, view: 'write' }, result: { session: uuid, pane: 5, id: 'devbox:5' } },
  'agent/diff': {
    params: { pane: 3 },
    result: { worktree: '/home/me/src/shop/.pane/worktrees/ada-20261121-101500', branch: 'pane/ada-20261121-101500', base: '3f2a9c1d0e8b7a6f5e4d3c2b1a0f9e8d7c6b5a49', files: [{ status: 'M', path: 'src/parse.ts' }, { status: '?', path: 'notes.md' }], diff: 'diff --git a/src/parse.ts b/src/parse.ts\n--- a/src/parse.ts\n+++ b/src/parse.ts\n@@ -1 +1 @@\n-old\n+new\n' },
  },
  'agent/review': { params: { pane: 3, verdict: 'accept', file: 'src/parse.ts' }, result: { done: 'committed 1 file to pane/ada-20261121-101500: 9c1e2d3' } },
  'agent/worktree-remove': { params: { pane: 3 }, result: { path: '/home/me/src/shop/.pane/worktrees/ada-20261121-101500', branch: 'pane/ada-20261121-101500' } },
};

export const agentEventFixtures = {
  'agent/changed': { agent: agentInfo },
  'agent/removed': { name: 'ada' },
  'agent/state-changed': { name: 'ada', state: 'waiting', previous: 'working', since: 1_700_000_000_000, pane: 3, reason: 'finished its turn' },
  'agent/waiting': { name: 'ada', pane: 3, id: 'devbox:3', message: 'ada finished and waits for you' },
  'agent/said': { from: 'ada', to: 'me', text: 'done: the redirect keeps the query string', at: 1_700_000_000_000, pane: 3 },
  'agent/mailed': { to: 'ada', from: 'me', subject: 'review this PR', id: mail.id, unread: 1 },
  'agent/denied': { name: 'ada', method: 'pane/close', reason: 'write pane 4 (com.pane.terminal) with pane/close (.access panes.write: self)', at: 1_700_000_000_000 },
};
