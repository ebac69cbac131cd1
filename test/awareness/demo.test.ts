// End to end: two demo agents in a real `pane serve`, in known quadrants, are
// given tasks that drift from separate work onto the same topics. Awareness must
// predict the convergence, show it on both agents' panes, announce it as an
// event, and hand each agent the other's name and quadrant as hook context.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, servePerFile, until } from '../cli/harness';

const s = servePerFile();

const json = <T>(args: string[]): T => JSON.parse(s.pane(args).stdout) as T;
/** The pane's text with the terminal's line wrapping undone (agent panes are narrow). */
const screen = (pane: string) => s.pane(['screen', '-t', pane]).stdout.replace(/\n/g, '');

/** Each task asks a y/n question midway; "n" after every task answers it, so all lines can be typed at once. */
const tasks = (xs: string[]) => xs.flatMap((t) => [t, 'n']).join('\n');

describe('awareness with two demo agents', () => {
  it('warns both agents, by name and quadrant, as their prompts drift together', async () => {
    const proj = path.join(s.dir, 'shop');
    fs.mkdirSync(proj);
    const watch = s.spawnPane(['watch', 'awareness']);
    const events = collect(watch);
    try {
      const launched: Record<string, string> = {};
      for (const [name, quadrant] of [['ada', 'top-left'], ['bob', 'bottom-right']] as const) {
        expect(s.pane(['agent', 'add', name]).status).toBe(0);
        const run = s.pane(['agent', 'run', name, '--app', 'demo-agent', '--cwd', proj]);
        expect(run.stderr).toBe('');
        const pane = run.stdout.trim().split(' ')[1]!.split(':')[1]!;
        // Put it there: the server computes a pane's quadrant from where it is (a 40×12
        // float in that corner of the default 160×48 view), window or not.
        const spot = quadrant === 'top-left' ? { x: 0, y: 0 } : { x: 100, y: 30 };
        const moved = s.pane(['float', '-t', pane, '--x', String(spot.x), '--y', String(spot.y), '--w', '40', '--h', '12']);
        expect(moved.status, moved.stderr).toBe(0);
        launched[name] = pane;
      }
      const ada = launched.ada!;
      const bob = launched.bob!;
      for (const name of ['ada', 'bob']) await until(`${name} ready after SessionStart`, () => json<{ state: string }>(['finger', '--json', name]).state === 'ready', 30_000);
      // access and finger agree on how it reports: through hooks it runs itself (issue 34: access said "none").
      expect(s.pane(['finger', 'ada']).stdout).toMatch(/reported through hooks/);
      expect(s.pane(['access', 'ada']).stdout).toMatch(/hooks: +its own: the program runs `pane hook` itself/);

      s.pane(['send', '-t', ada, tasks(['style the settings page css layout', 'add jwt auth to the login page', 'jwt auth login session expiry', 'jwt auth login token refresh', 'jwt auth login logout'])]);
      s.pane(['send', '-t', bob, tasks(['database migration for the orders table', 'jwt login auth for the api', 'auth login jwt token verification', 'jwt auth login session cleanup', 'jwt auth login rate limit'])]);

      type Preds = { active: { a: string; b: string; type: string; recommendation: string }[] };
      const preds = await until('a prediction about ada and bob', () => {
        const p = json<Preds>(['awareness', 'predictions', '--json']).active.filter((x) => [x.a, x.b].sort().join() === 'ada,bob');
        return p.length > 0 ? p : undefined;
      }, 120_000);
      expect(preds.map((p) => p.recommendation).join('\n')).toMatch(/ada \(top-left\).*bob \(bottom-right\)|bob \(bottom-right\).*ada \(top-left\)/);

      // Both panes say so: tags, /pane/<n>/attrs and the peers view read these attrs.
      const attrs = (pane: string) => json<Record<string, string>>(['attr', '-t', pane, '--json']);
      await until('the converge attr on both panes', () => /bob \(bottom-right\)/.test(attrs(ada)['awareness.converge'] ?? '') && /ada \(top-left\)/.test(attrs(bob)['awareness.converge'] ?? ''), 30_000);
      expect(attrs(ada)['awareness.topics']).toMatch(/jwt|auth|login/);

      // The event a notification is made from.
      await until('an awareness/predicted event naming both', () => /"event":"awareness\/predicted".*"message":"(ada \(top-left\) and bob \(bottom-right\)|bob \(bottom-right\)[^"]*ada \(top-left\))/.test(events.out()), 10_000);

      // Each agent is told at a later turn: the demo agent prints the hook context it receives.
      await until('ada hearing about bob', () => /Convergence:[\s\S]*bob \(bottom-right\)/.test(screen(ada)), 120_000);
      await until('bob hearing about ada', () => /Convergence:[\s\S]*ada \(top-left\)/.test(screen(bob)), 120_000);
      expect(screen(ada)).toMatch(/- bob \(bottom-right\), active \d+ s ago: [^-]*(jwt|auth|login)/);
    } finally {
      watch.kill('SIGTERM');
    }
  }, 300_000);
});
