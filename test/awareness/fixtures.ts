// Golden awareness messages: one params + result per awareness/* method and one
// payload per event, spread into test/fixtures/protocol.ts.
const T0 = 1_700_000_000_000;
const claim = {
  id: 'clm_1a2b3c4d',
  kind: 'file',
  path: '/home/ada/shop/src/auth.ts',
  holder: 'bob',
  scope: 'exclusive',
  reason: 'rewriting the refresh path',
  claimedAt: T0,
  expiresAt: null,
  contestedBy: null,
  contestedAt: null,
} as const;
const trajectory = { deepening: ['auth'], emerging: ['jwt'], fading: ['css'], stable: ['login'] };
const agent = {
  name: 'ada',
  pane: 3,
  quadrant: 'top-left',
  cwd: '/home/ada/shop',
  lastPrompt: 'refresh the jwt on login',
  promptCount: 12,
  keyTopics: ['auth', 'jwt', 'login'],
  window: [{ at: T0, hash: 'a1b2c3d4', topics: ['auth', 'jwt', 'login'], files: ['/home/ada/shop/src/auth.ts'] }],
  trajectory,
  createdAt: T0,
  lastActive: T0 + 60_000,
  endedAt: null,
  label: 'ada (top-left)',
  stale: false,
  idle: false,
};
const prediction = {
  id: 'prd_5e6f7a8b',
  type: 'approaching',
  a: 'ada',
  b: 'bob',
  topics: ['auth', 'jwt'],
  domain: null,
  confidence: 0.42,
  distance: 3,
  recommendation: 'ada (top-left) and bob (bottom-right) converge on auth, jwt (about 3 prompts away): message each other before editing shared files.',
  createdAt: T0,
  updatedAt: T0,
  misses: 0,
};
const resolution = { ...prediction, outcome: 'prevented', resolvedAt: T0 + 300_000 };
const accuracy = { prevented: 4, occurred: 1, falsePositive: 2, expired: 1, missed: 0, thresholdAdjustments: 1 };
const message = {
  id: 'msg_9c8d7e6f',
  from: 'bob',
  target: { kind: 'agent', name: 'ada' },
  type: 'question',
  priority: 'high',
  text: 'are you touching auth.ts?',
  at: T0,
  deliveredTo: [],
};
const notice = {
  id: 'ada+bob',
  agents: ['ada', 'bob'],
  topics: ['auth', 'jwt'],
  message: 'ada (top-left) and bob (bottom-right) converge on auth, jwt',
  panes: [3, 4],
  predictions: ['prd_5e6f7a8b'],
  since: T0 + 120_000,
  updatedAt: T0 + 180_000,
  updates: 1,
};
const labels = { bob: 'bob (bottom-right)' };

export const awarenessMethodFixtures = {
  'awareness/prompt': { params: { agent: 'ada', text: 'refresh the jwt on login' }, result: { agent, topics: ['refresh', 'jwt', 'login'], predicted: [prediction] } },
  'awareness/tool': {
    params: { agent: 'ada', tool: 'Edit', files: ['src/auth.ts'], write: true, cwd: '/home/ada/shop' },
    result: { agent: 'ada', collisions: ['bob'], claimed: [claim], warning: '/home/ada/shop/src/auth.ts is claimed by bob (bottom-right) (exclusive: rewriting the refresh path).' },
  },
  'awareness/agents': { params: {}, result: { agents: [agent] } },
  'awareness/claim': {
    params: { agent: 'ada', resource: 'src/auth.ts', reason: 'login fix', contest: true, cwd: '/home/ada/shop' },
    result: { status: 'conflict', claim: null, conflicts: [claim], contested: [{ ...claim, contestedBy: 'ada', contestedAt: T0 + 1000 }], labels, contestTimeoutMs: 120_000 },
  },
  'awareness/release': { params: { agent: 'bob', resource: '/home/ada/shop/src/auth.ts' }, result: { released: [claim] } },
  'awareness/claims': {
    params: { log: true },
    result: { claims: [claim], labels, log: [{ at: T0, action: 'claimed', kind: 'file', path: claim.path, holder: 'bob', by: null }] },
  },
  'awareness/check': { params: { agent: 'ada', resource: 'src/auth.ts', cwd: '/home/ada/shop' }, result: { path: claim.path, claims: [claim], warning: 'src/auth.ts is claimed by bob (bottom-right).' } },
  'awareness/message': { params: { agent: 'bob', to: { kind: 'agent', name: 'ada' }, type: 'question', priority: 'high', text: 'are you touching auth.ts?' }, result: message },
  'awareness/inbox': { params: { agent: 'ada' }, result: { agent: 'ada', messages: [message] } },
  'awareness/messages': { params: { limit: 10 }, result: { messages: [message] } },
  'awareness/predictions': { params: { resolved: 5 }, result: { active: [prediction], resolved: [resolution], accuracy, threshold: 0.4 } },
  'awareness/notices': { params: {}, result: { notices: [notice] } },
  'awareness/resolve': { params: { id: 'prd_5e6f7a8b', outcome: 'prevented' }, result: resolution },
  'awareness/handoff': {
    params: { from: 'ada', to: 'bob' },
    result: {
      from: 'ada',
      to: 'bob',
      summary: 'ada (top-left) — on auth, jwt, login; 12 prompts, last active 1 min ago, in /home/ada/shop.',
      trajectory: ['deepening: auth', 'emerging: jwt', 'stable: login', 'fading: css', 'claims: none', 'files touched: /home/ada/shop/src/auth.ts'],
      detail: ['turn 12: auth, jwt, login [1 file]'],
      text: 'Handoff from ada (top-left) to bob (bottom-right)\n…',
      message: { ...message, from: 'ada', target: { kind: 'agent', name: 'bob' }, type: 'handoff', text: 'Handoff from ada (top-left) to bob (bottom-right)\n…' },
    },
  },
  'awareness/delegate': {
    params: { task: 'fix the jwt expiry in login' },
    result: { topics: ['jwt', 'expiry', 'login'], suggestions: [{ agent: 'ada', label: 'ada (top-left)', score: 0.6, matched: ['jwt', 'login'], reason: 'ada (top-left) has worked on jwt, login' }] },
  },
  'awareness/context': { params: { agent: 'ada' }, result: { agent: 'ada', text: 'pane awareness — you are ada (top-left).\nOther agents:\n- bob (bottom-right), active 5 s ago: auth, jwt' } },
} as const;

export const awarenessEventFixtures = {
  'awareness/notice': { notice },
  'awareness/notice-withdrawn': { id: 'ada+bob', outcome: 'prevented', message: 'ada (top-left) and bob (bottom-right): no longer converging (they coordinated)' },
  'awareness/predicted': { prediction, message: 'ada (top-left) and bob (bottom-right) converge on auth, jwt', panes: [3, 4] },
  'awareness/resolved': { resolution },
  'awareness/calibrated': { from: 0.35, to: 0.4, falsePositiveRate: 0.4, occurredRate: 0 },
  'awareness/claims-changed': { claims: [claim] },
  'awareness/claim-contested': { claim: { ...claim, contestedBy: 'ada', contestedAt: T0 + 1000 }, by: 'ada', message: 'ada (top-left) contests bob (bottom-right)’s claim on src/auth.ts; released in 120 s unless bob answers', timeoutMs: 120_000, panes: [3, 4] },
  'awareness/collided': { a: 'ada', b: 'bob', file: claim.path, message: 'ada (top-left) wrote src/auth.ts, which bob (bottom-right) holds', panes: [3, 4] },
  'awareness/messaged': { message },
  'awareness/agent-changed': { agent },
} as const;
