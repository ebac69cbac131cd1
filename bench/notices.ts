// Agents' news on screen: 10 agents in panes of a real `pane serve --http`, shown in
// Debian's Chromium, converge in 5 pairs (prompts recorded as their hooks would,
// through awareness/prompt). Counts the convergence notices the window shows at
// most and at the end — one per pair is the aim — next to what the engine holds
// (open predictions) and what a notice per warned pane would have shown.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { openShell } from './page';
import { sleep, tileEvenly } from './procs';

export interface NoticesResult {
  agents: number;
  pairs: number;
  /** Most convergence notices on screen at once during the run. */
  maxOnScreen: number;
  atEnd: number;
  predictions: number;
  warnedPanes: number;
}

/** Each pair drifts from its own start onto its own shared ground; no two pairs share words. */
const PAIRS: { start: [string, string]; drift: string[] }[] = [
  { start: ['style the settings page css', 'write the release notes'], drift: ['jwt auth login token', 'jwt login session auth expiry', 'auth jwt token signature login', 'jwt auth login rotation'] },
  { start: ['fix the flaky upload test', 'rename the logger module'], drift: ['orders table database migration', 'database orders schema migration', 'migration of orders database index', 'orders database migration rollback'] },
  { start: ['tidy the readme badges', 'bump the lockfile'], drift: ['kafka consumer retry queue', 'queue retry kafka consumer backoff', 'kafka queue consumer offsets retry', 'retry kafka consumer queue lag'] },
  { start: ['add a favicon', 'translate the footer'], drift: ['docker image build cache', 'docker build cache layers image', 'image docker cache build slim', 'docker cache image build multistage'] },
  { start: ['profile the search page', 'add a dark mode toggle'], drift: ['websocket reconnect heartbeat ping', 'heartbeat websocket ping reconnect backoff', 'websocket ping heartbeat timeout reconnect', 'reconnect websocket heartbeat jitter'] },
];

export async function notices(dir: string): Promise<NoticesResult> {
  const sh = await openShell(dir);
  try {
    const { c, page } = sh;
    const names: string[] = [];
    const session = (await c.call('session/get', {})).id;
    await tileEvenly(c, session, 1 + PAIRS.length * 2, async (pane, direction) => {
      const name = `ag${names.length}`;
      names.push(name);
      await c.call('agent/add', { name });
      return (await c.call('pane/launch', { pane, direction, kind: 'agent', attrs: { agent: name }, launch: { program: '/bin/cat', args: [] } })).pane;
    });
    // The most convergence notices the strip ever holds, sampled on every change.
    await page.evaluate(() => {
      const w = window as any;
      w.maxNotices = 0;
      const count = () => (w.maxNotices = Math.max(w.maxNotices, document.querySelectorAll('.notice[data-key^="converge:"]').length));
      new MutationObserver(count).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    for (const [p, pair] of PAIRS.entries()) {
      await c.call('awareness/prompt', { agent: names[2 * p]!, text: pair.start[0] });
      await c.call('awareness/prompt', { agent: names[2 * p + 1]!, text: pair.start[1] });
    }
    // Interleaved, as agents working at once would be.
    for (let step = 0; step < 4; step++) {
      for (const [p, pair] of PAIRS.entries()) {
        await c.call('awareness/prompt', { agent: names[2 * p]!, text: pair.drift[step]! });
        await c.call('awareness/prompt', { agent: names[2 * p + 1]!, text: pair.drift[(step + 1) % 4]! });
      }
    }
    // Let the window catch up: the strip stops changing.
    let last = -1;
    for (let i = 0; i < 40; i++) {
      const n = await page.evaluate(() => document.querySelectorAll('.notice[data-key^="converge:"]').length);
      if (n === last && n > 0) break;
      last = n;
      await sleep(250);
    }
    const shown = await page.evaluate(() => ({ max: (window as any).maxNotices as number, now: document.querySelectorAll('.notice[data-key^="converge:"]').length }));
    const preds = await c.call('awareness/predictions', {});
    const panes = await c.call('pane/list', {});
    return {
      agents: names.length,
      pairs: PAIRS.length,
      maxOnScreen: shown.max,
      atEnd: shown.now,
      predictions: preds.active.length,
      warnedPanes: panes.panes.filter((p) => p.attrs['awareness.converge']).length,
    };
  } finally {
    await sh.close();
  }
}
