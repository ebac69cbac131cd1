// The engine driven like the server drives it: scripted prompts and tool uses by
// several agents under a manual clock.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/awareness/clock';
import { Awareness, type AwarenessEvent } from '../../server/awareness/engine';
import type { Part } from '../../server/awareness/engineTypes';
import { mirrorRecord } from '../../server/hosts/remoteAwareness';

function engine(config = {}) {
  const clock = new ManualClock();
  const events: AwarenessEvent[] = [];
  let n = 0;
  const aw = new Awareness({ clock, config, ids: () => String(++n), onEvent: (e) => events.push(e) });
  return { aw, clock, events };
}

const AUTH = ['refactor the jwt auth login flow', 'jwt token refresh for auth login', 'auth login session jwt expiry', 'jwt auth login middleware'];

describe('awareness engine', () => {
  it('predicts convergence when two agents’ prompts drift together, naming both by quadrant', () => {
    const { aw, clock, events } = engine();
    aw.see('ada', { quadrant: 'top-left', cwd: '/p' });
    aw.see('bob', { quadrant: 'bottom-right', cwd: '/p' });
    aw.prompt('ada', 'style the settings page css layout');
    aw.prompt('bob', 'database migration for orders table');
    expect(aw.predictions()).toEqual([]);
    for (const p of AUTH) {
      clock.advance(30_000);
      aw.prompt('ada', p);
      aw.prompt('bob', p.replace('refactor', 'review'));
    }
    const types = aw.predictions().map((p) => p.type);
    expect(types).toContain('approaching');
    expect(types).toContain('mutual-deepening');
    const ap = aw.predictions().find((p) => p.type === 'approaching')!;
    expect(ap.recommendation).toMatch(/^ada \(top-left\) and bob \(bottom-right\) converge on .*auth/);
    expect(events.filter((e) => e.kind === 'predicted').length).toBeGreaterThanOrEqual(2);
  });

  it('resolves as occurred when both write the same file, and as prevented when they talked first', () => {
    const { aw, clock } = engine();
    for (const p of AUTH) {
      aw.prompt('ada', p);
      aw.prompt('bob', p);
    }
    expect(aw.predictions().length).toBeGreaterThan(0);
    aw.tool('ada', { files: ['/p/auth.ts'], write: true });
    clock.advance(1000);
    expect(aw.tool('bob', { files: ['/p/auth.ts'], write: true }).collisions).toEqual(['ada']);
    expect(aw.predictions()).toEqual([]);
    expect(aw.predictionState().accuracy.occurred).toBeGreaterThan(0);

    const { aw: aw2 } = engine();
    for (const p of AUTH) {
      aw2.prompt('ada', p);
      aw2.prompt('bob', p);
    }
    aw2.message({ from: 'ada', target: { kind: 'agent', name: 'bob' }, type: 'request', priority: 'high', text: 'I take login, you take refresh' });
    // ada moves on: once auth has left her window, the pair no longer converges by any signal.
    for (let i = 0; i < 12; i++) aw2.prompt('ada', ['style the settings page css grid', 'css theme colors for the settings page'][i % 2]!);
    expect(aw2.predictionState().resolved.map((r) => r.outcome)).toContain('prevented');
  });

  it('hands an agent the others, their claims, convergence and its messages as context, once', () => {
    const { aw } = engine();
    aw.see('ada', { quadrant: 'top-left', cwd: '/p' });
    aw.see('bob', { quadrant: 'bottom-right', cwd: '/p' });
    for (const p of AUTH) {
      aw.prompt('ada', p);
      aw.prompt('bob', p);
    }
    aw.claim({ holder: 'bob', path: 'src/auth.ts', reason: 'rewriting the refresh path' });
    aw.message({ from: 'bob', target: { kind: 'quadrant', quadrant: 'top-left' }, type: 'question', priority: 'normal', text: 'are you touching auth.ts?' });
    const ctx = aw.contextFor('ada', true);
    expect(ctx).toContain('you are ada (top-left)');
    expect(ctx).toMatch(/- bob \(bottom-right\), active 0 s ago: .*auth/);
    expect(ctx).toContain('/p/src/auth.ts — bob (bottom-right), exclusive: rewriting the refresh path');
    expect(ctx).toMatch(/Convergence:\n- ada \(top-left\) and bob \(bottom-right\)/);
    expect(ctx).toContain('[question] bob (bottom-right) → the top-left quadrant: are you touching auth.ts?');
    expect(aw.contextFor('ada', true)).not.toContain('Messages for you');
  });

  it('reports a write into another agent’s claim and counts it as a collision', () => {
    const { aw } = engine();
    aw.see('ada', { cwd: '/p' });
    aw.see('bob', { cwd: '/p' });
    aw.claim({ holder: 'bob', path: 'src/', reason: 'moving files' });
    const r = aw.tool('ada', { files: ['/p/src/x.ts'], write: true });
    expect(r.claimed.map((c) => c.holder)).toEqual(['bob']);
    expect(r.collisions).toEqual(['bob']);
    expect(aw.predictionState().accuracy.missed).toBe(1);
  });

  it('lets claims of an agent that went stale lapse, and releases claims when a session ends', () => {
    const { aw, clock } = engine();
    aw.see('ada', { cwd: '/p' });
    aw.see('bob', { cwd: '/p' });
    aw.claim({ holder: 'ada', path: 'a.ts' });
    aw.claim({ holder: 'bob', path: 'b.ts' });
    aw.end('bob');
    expect(aw.claims().map((c) => c.holder)).toEqual(['ada']);
    clock.advance(aw.cfg.staleAfterMs);
    expect(aw.claims()).toEqual([]);
    expect(aw.claimLog().map((e) => e.action)).toEqual(['claimed', 'claimed', 'released', 'holder-stale']);
  });

  it('builds a tiered handoff and sends it as a handoff message', () => {
    const { aw } = engine();
    aw.see('ada', { quadrant: 'top-left', cwd: '/p' });
    for (const p of AUTH) aw.prompt('ada', p);
    aw.tool('ada', { files: ['/p/src/auth/jwt.ts'], write: true });
    aw.claim({ holder: 'ada', path: 'src/auth/', kind: 'dir', reason: 'auth rewrite' });
    const h = aw.handoff('ada', 'bob')!;
    expect(h.summary).toMatch(/^ada \(top-left\) — on .*auth.*; 4 prompts, last active 0 s ago, in \/p\.$/);
    expect(h.trajectory).toContain('claims: /p/src/auth/ (exclusive: auth rewrite)');
    expect(h.trajectory).toContain('files touched: /p/src/auth/jwt.ts');
    expect(h.detail[0]).toMatch(/^turn 1: /);
    expect(aw.pending('bob').map((m) => m.type)).toEqual(['handoff']);
  });

  it('keeps repeated handoffs the same size (a handoff does not quote the last one)', () => {
    const { aw } = engine();
    for (const p of AUTH) aw.prompt('ada', p);
    aw.message({ from: 'bob', target: { kind: 'agent', name: 'ada' }, type: 'info', priority: 'normal', text: 'x'.repeat(5000) });
    const sizes = Array.from({ length: 8 }, () => aw.handoff('ada', 'bob')!.text.length);
    expect(new Set(sizes).size).toBe(1);
    expect(sizes[0]).toBeLessThan(3000);
  });

  it('suggests the idle agent whose trajectory fits a task', () => {
    const { aw, clock } = engine();
    for (const p of AUTH) aw.prompt('ada', p);
    for (let i = 0; i < 4; i++) aw.prompt('cy', 'css layout for the settings page');
    clock.advance(aw.cfg.idleAfterMs);
    aw.prompt('bob', 'jwt auth login too'); // busy: just prompted
    const d = aw.delegate('fix the jwt expiry in login');
    expect(d.topics).toEqual(['jwt', 'expiry', 'login']);
    expect(d.suggestions.map((s) => s.agent)).toEqual(['ada']);
    expect(d.suggestions[0]!.reason).toBe('ada has worked on jwt, expiry, login');
  });

  it('learns a topic that keeps appearing with a domain’s words, and keeps it', () => {
    const { aw, events } = engine();
    for (let i = 0; i < 3; i++) aw.prompt('ada', 'jwt login with passkeys');
    expect(events.filter((e) => e.kind === 'learned')).toEqual([{ kind: 'learned', topic: 'passkey', domain: 'auth' }]);
    expect(aw.domains().learned).toEqual({ auth: ['passkey'] });
  });

  it('does not learn a word that goes with every domain', () => {
    const { aw } = engine();
    for (let i = 0; i < 3; i++) {
      aw.prompt('ada', 'jwt login module');
      aw.prompt('ada', 'sql migration module');
    }
    expect(aw.domains().learned).toEqual({});
  });

  it('targets messages to an agent, a pane, a quadrant or everyone, most urgent first', () => {
    const { aw } = engine();
    aw.see('ada', { pane: 3, quadrant: 'top-left' });
    aw.see('bob', { pane: 4, quadrant: 'top-right' });
    const send = (target: Parameters<typeof aw.message>[0]['target'], text: string, priority: 'low' | 'normal' | 'urgent' = 'normal') => aw.message({ from: 'cy', target, type: 'info', priority, text });
    send({ kind: 'all' }, 'all');
    send({ kind: 'pane', pane: 3 }, 'pane3');
    send({ kind: 'quadrant', quadrant: 'top-right' }, 'tr');
    send({ kind: 'agent', name: 'ada' }, 'ada', 'urgent');
    send({ kind: 'all' }, 'low', 'low');
    expect(aw.pending('ada').map((m) => m.text)).toEqual(['ada', 'all', 'pane3', 'low']);
    expect(aw.pending('bob').map((m) => m.text)).toEqual(['all', 'tr', 'low']);
    expect(aw.pending('cy')).toEqual([]);
  });
  it("marks nothing and runs no pass when a joined host reports its agents again unchanged; a change is kept and paired", () => {
    const clock = new ManualClock();
    const marked: Part[][] = [];
    const aw = new Awareness({ clock, config: {}, ids: () => 'x', onChange: (parts) => marked.push(parts) });
    for (const p of AUTH) aw.prompt('bob', p);
    // What a host's daemon answers awareness/agents with (a view), mirrored as the poll mirrors it.
    const remote = new Awareness({ clock: new ManualClock(), config: {} });
    for (const p of AUTH) remote.prompt('ada', p.replace('refactor', 'review'));
    const poll = () => aw.mirror('box', [mirrorRecord(remote.view(remote.agent('ada')!), 'box', clock.now())]);
    marked.length = 0;
    poll();
    expect(marked.flat()).toContain('registry');
    const paired = aw.predictions().filter((p) => [p.a, p.b].sort().join(' ') === 'ada@box bob');
    expect(paired.length).toBeGreaterThan(0);
    const createdAt = aw.agent('ada@box')!.createdAt;
    // Polls every 2 s with the same answer: still live here, nothing to write, no pass.
    marked.length = 0;
    for (let i = 0; i < 5; i++) {
      clock.advance(2000);
      poll();
    }
    expect(marked).toEqual([]);
    expect(aw.agent('ada@box')!.lastActive).toBe(clock.now());
    expect(aw.agent('ada@box')!.createdAt).toBe(createdAt);
    // A new prompt there is a change: kept (its first sighting's time too), and the registry marked.
    remote.prompt('ada', 'jwt refresh token rotation for the auth login');
    poll();
    expect(marked.flat()).toContain('registry');
    expect(aw.agent('ada@box')!.promptCount).toBe(AUTH.length + 1);
    expect(aw.agent('ada@box')!.createdAt).toBe(createdAt);
    // The host no longer reporting it is a change too.
    marked.length = 0;
    aw.mirror('box', []);
    expect(marked.flat()).toContain('registry');
    expect(aw.agent('ada@box')).toBeUndefined();
  });
});
