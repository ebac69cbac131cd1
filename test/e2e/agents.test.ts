// Agents in the desktop shell end to end: the demo agent runs in a pane of a real
// server (`pane serve --http`) shown in Debian's Chromium. Its tag shows the state
// badge as it works and waits, a notice appears when it waits (and focuses it when
// clicked), a convergence warning shows in the tag — set by hand, then from two
// agents' real convergence, with one notice for the pair — and the peers view lists them. Each step leaves a
// screenshot in test-results/.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, CHROMIUM_ARGS, region, root, serve, shot, until, view, waitScreen } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The window served by `pane serve --http` from the built bundle (the CLI's own
 * server, as `pane agent run` users start it), with web notifications granted and
 * recorded in the page.
 */
async function openAgentShell() {
  const served = await serve({ entry: 'cli' });
  const { dir, url, cli, cliIn, configDir } = served;
  const context: BrowserContext = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 800 } });
  const page: Page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  // Desktop notifications granted, and recorded (headless Chromium shows none).
  await context.grantPermissions(['notifications'], { origin: new URL(url).origin });
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string }[] = [];
    class Recorded extends Real {
      constructor(title: string, o?: NotificationOptions) {
        super(title, o);
        shown.push({ title, body: o?.body ?? '' });
      }
    }
    (window as any).Notification = Recorded;
    (window as any).shownNotifications = shown;
  });
  await page.goto(url);
  await until(page, 'the window to connect and show a pane', () => {
    const st = (window as any).pane.store.getState();
    const s = st.sessions[st.sessionId];
    return st.conn.state === 'open' && s?.focused != null && (window as any).pane.screen(s.focused) !== null;
  });
  const close = async () => {
    await context.close().catch(() => undefined);
    await served.stop();
  };
  return { dir, page, cli, cliIn, close, configDir };
}

let sh: Awaited<ReturnType<typeof openAgentShell>>;
let agent: string;
let pane: number;

const badge = () => region(sh.page, pane).locator('.agent-state');
const badgeState = () => badge().getAttribute('data-state');
/** A close-up of the agent pane's tag, to look at. */
const tagShot = async (name: string) => {
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  await region(sh.page, pane).locator('.tag').screenshot({ path: path.join(root, 'test-results', `${name}.png`) });
};
const notices = () => sh.page.locator(`.notice[data-pane="${pane}"]`);

describe.skipIf(chromiumMissing)(`agents in the desktop shell${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openAgentShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('launches the demo agent into a pane whose tag names it and shows it ready (at its prompt before any task, reported by its hooks), with no call for the person', async () => {
    const proj = path.join(sh.dir, 'proj');
    fs.mkdirSync(proj);
    const run = sh.cli('agent', 'run', '--app', 'demo-agent', '--cwd', proj);
    expect(run.code, run.stderr).toBe(0);
    const [name, id] = run.stdout.trim().split(' ') as [string, string];
    agent = name;
    pane = Number(id.split(':')[1]);
    await waitScreen(sh.page, pane, 'demo>', 30_000);
    await expect.poll(badgeState, { timeout: 20_000 }).toBe('ready');
    const tag = region(sh.page, pane).getByRole('toolbar', { name: `tag of ${agent}` });
    await expect.poll(() => tag.count()).toBe(1);
    // The since-when is in the badge's accessible label and tooltip.
    expect(await badge().textContent()).toBe('ready');
    expect(await badge().getAttribute('aria-label')).toMatch(new RegExp(`^agent ${agent} ready \\(reported\\) since `));
    expect(await badge().getAttribute('title')).toMatch(/^ready \(reported\) since .* from hooks/);
    expect(await notices().filter({ hasText: `${agent}` }).filter({ hasText: 'needs you' }).count()).toBe(0);
    // The status line counts it as ready (it had read 0 need you, 0 working, 0 done: as if no agent were there).
    await expect.poll(() => sh.page.locator('.sl-agents').getAttribute('aria-label')).toMatch(/^agents: 0 need you, 0 working, 0 done, 1 ready, 0 with unread mail$/);
    await shot(sh.page, 'agents-01-ready');
    await tagShot('agents-01-ready-tag');
  }, 60_000);

  it('shows the badge go working, then waiting again when the agent asks, with a notice that focuses the pane', async () => {
    for (const n of await sh.page.locator('.notice button[aria-label="dismiss"]').all()) await n.click();
    // Give it a task, as a person typing in its pane would.
    const sent = sh.cli('send', '-t', String(pane), 'add a usage section to the README');
    expect(sent.code, sent.stderr).toBe(0);
    await expect.poll(badgeState, { timeout: 15_000, interval: 20 }).toBe('working');
    await shot(sh.page, 'agents-02-working');
    // Desktop notifications are asked for (settings.json; off by default), and the agent's pane is
    // hidden behind another pane zoomed: its question is a desktop notification too.
    fs.writeFileSync(path.join(sh.configDir, 'settings.json'), JSON.stringify({ agentNotifications: 'when-hidden' }));
    await until(sh.page, 'the setting in force', () => (window as any).pane.store.getState().settings.settings.agentNotifications === 'when-hidden');
    const other = (await view(sh.page)).tiles.find((t) => t !== pane)!;
    await sh.page.evaluate((p) => (window as any).pane.client.act('pane/zoom', { pane: p, zoom: true }), other);
    await waitScreen(sh.page, pane, '[y/n]', 30_000);
    try {
      await expect.poll(() => sh.page.evaluate(() => (window as any).shownNotifications.map((x: { body: string }) => x.body)), { timeout: 10_000 }).toContain(`${agent} (right) needs you`);
    } finally {
      await sh.page.evaluate((p) => (window as any).pane.client.act('pane/zoom', { pane: p, zoom: false }), other);
    }
    await expect.poll(badgeState, { timeout: 15_000 }).toBe('waiting');
    expect(await badge().textContent()).toBe('needs you');
    expect(await badge().getAttribute('aria-label')).toMatch(new RegExp(`^agent ${agent} needs you \\(reported\\) since `));
    await tagShot('agents-03-needs-you-tag');
    // Move focus away, so clicking the notice has something to do.
    await sh.page.evaluate((p) => (window as any).pane.client.act('pane/focus', { pane: p }), other);
    await until(sh.page, 'focus elsewhere', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${other};`) as () => boolean);
    const note = notices().filter({ hasText: 'needs you' });
    await expect.poll(() => note.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot(sh.page, 'agents-03-asks');
    await note.first().locator('.notice-go').click();
    await until(sh.page, 'the notice focusing the agent pane', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${pane};`) as () => boolean);
    expect(sh.cli('send', '-t', String(pane), 'y').code).toBe(0);
    await waitScreen(sh.page, pane, '✔ done', 30_000);
    // Back at its prompt after a task: done now, not ready.
    await expect.poll(badgeState, { timeout: 15_000 }).toBe('done');
  }, 90_000);

  it('shows unread mail as a count in the tag', async () => {
    const r = sh.cliIn('please review the usage section\n', 'mail', '-s', 'review', agent);
    expect(r.code, r.stderr).toBe(0);
    const unread = region(sh.page, pane).getByRole('note', { name: '1 unread mail' });
    await expect.poll(() => unread.count(), { timeout: 10_000 }).toBe(1);
    expect(await unread.textContent()).toBe('✉ 1');
  }, 30_000);

  it('shows a convergence warning in the tag when awareness.converge is set (the notice is the presenter’s, per pair)', async () => {
    const r = sh.cli('attr', '-t', String(pane), 'awareness.converge=bob (bottom-right): auth, jwt');
    expect(r.code, r.stderr).toBe(0);
    const warn = region(sh.page, pane).locator('.agent-converge');
    await expect.poll(() => warn.textContent(), { timeout: 10_000 }).toBe('⚠ converges with bob (bottom-right): auth, jwt');
    expect(await warn.getAttribute('aria-label')).toBe('warning: converges with bob (bottom-right): auth, jwt');
    await shot(sh.page, 'agents-04-converge');
    await tagShot('agents-04-converge-tag');
    // Cleared, it leaves the tag.
    expect(sh.cli('attr', '-t', String(pane), 'awareness.converge=').code).toBe(0);
    await expect.poll(() => warn.count(), { timeout: 10_000 }).toBe(0);
  }, 30_000);

  it('warns two agents whose prompts drift together: each tag names the other by quadrant, a desktop notification says so, and each is told at its next turn', async () => {
    const proj = path.join(sh.dir, 'shop');
    fs.mkdirSync(proj);
    const two: { name: string; pane: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const run = sh.cli('agent', 'run', '--app', 'demo-agent', '--cwd', proj);
      expect(run.code, run.stderr).toBe(0);
      const [name, id] = run.stdout.trim().split(' ') as [string, string];
      two.push({ name, pane: Number(id.split(':')[1]) });
    }
    const [x, y] = two as [{ name: string; pane: number }, { name: string; pane: number }];
    for (const a of two) await expect.poll(() => region(sh.page, a.pane).locator('.agent-state').getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    // Each task asks a y/n question midway; "n" after every task answers it, so all lines go at once.
    const tasks = (xs: string[]) => xs.flatMap((t) => [t, 'n']).join('\n');
    expect(sh.cli('send', '-t', String(x.pane), tasks(['style the settings page css layout', 'add jwt auth to the login page', 'jwt auth login session expiry', 'jwt auth login token refresh'])).code).toBe(0);
    expect(sh.cli('send', '-t', String(y.pane), tasks(['database migration for the orders table', 'jwt login auth for the api', 'auth login jwt token verification', 'jwt auth login session cleanup'])).code).toBe(0);

    // The quadrant each pane is in, as this window reported it.
    const quadrant = (n: number) => sh.page.evaluate((p) => (window as any).pane.store.getState().panes[p].attrs.quadrant as string, n);
    const warning = (n: number) => region(sh.page, n).locator('.agent-converge');
    const names = async (me: typeof x, other: typeof x) => new RegExp(`^⚠ converges with ${other.name} \\(${await quadrant(other.pane)}\\): .*(jwt|auth|login)`).test((await warning(me.pane).textContent().catch(() => '')) ?? '');
    await expect.poll(() => names(x, y), { timeout: 120_000, interval: 250 }).toBe(true);
    await expect.poll(() => names(y, x), { timeout: 30_000, interval: 250 }).toBe(true);
    // Topics a tag shows are readable: beside the warning and the words they had narrowed to two letters ("d…").
    for (const a of two) {
      const t = region(sh.page, a.pane).locator('.agent-topics');
      if ((await t.count()) > 0) expect((await t.boundingBox())!.width).toBeGreaterThanOrEqual(36);
    }

    // The desktop notification (the web one here; Electron's bridge in the app) and the in-window notice name both by quadrant.
    const shown = async () => (await sh.page.evaluate(() => (window as any).shownNotifications.map((n: { body: string }) => n.body))) as string[];
    const qx = await quadrant(x.pane);
    const qy = await quadrant(y.pane);
    // The headline names both by quadrant ("ada (left) and bob (right) converge on auth, jwt").
    const namesBoth = (t: string) => t.includes(`${x.name} (${qx})`) && t.includes(`${y.name} (${qy})`);
    await expect.poll(async () => (await shown()).some(namesBoth), { timeout: 10_000, message: 'a desktop notification naming both' }).toBe(true);
    // One notice for the pair, in the strip.
    const pair = sh.page.locator(`.notice[data-key="converge:${[x.name, y.name].sort().join('+')}"]`);
    await expect.poll(() => pair.count(), { timeout: 10_000 }).toBe(1);
    expect(namesBoth((await pair.textContent()) ?? ''), (await pair.textContent()) ?? '').toBe(true);
    await shot(sh.page, 'agents-05-real-convergence');

    // And each agent hears of the other at a later turn (the demo agent prints the hook context it gets).
    const screenOf = (n: number) => sh.cli('screen', '-t', String(n)).stdout.replace(/\n/g, '');
    await expect.poll(() => new RegExp(`Convergence:.*${y.name} \\(`).test(screenOf(x.pane)), { timeout: 120_000, interval: 500 }).toBe(true);
    await expect.poll(() => new RegExp(`Convergence:.*${x.name} \\(`).test(screenOf(y.pane)), { timeout: 120_000, interval: 500 }).toBe(true);
  }, 300_000);

  it('lists the agent in the peers view pane', async () => {
    const r = sh.cli('peers');
    expect(r.code, r.stderr).toBe(0);
    const peers = Number(r.stdout.trim().split(':').pop());
    await waitScreen(sh.page, peers, agent, 20_000);
    await shot(sh.page, 'agents-06-peers');
  }, 30_000);

  it('keeps the person’s keys in the person’s pane when an agent, from its own shell, focuses its pane and splits one that would take them', async () => {
    type Row = { n: number; owner: string; signature: string };
    const list = () => JSON.parse(sh.cli('ls', '--json').stdout) as Row[];
    const run = sh.cli('agent', 'run', 'mallory', '--', 'bash', '--norc', '--noprofile');
    expect(run.code, run.stderr).toBe(0);
    const shellPane = Number(run.stdout.trim().split(':').pop());
    // The person's own shell, focused by the person: where their keys go.
    const mine = list().find((p) => p.signature === 'com.pane.terminal' && p.owner !== 'mallory')!.n;
    expect(sh.cli('focus', '-t', String(mine)).code).toBe(0);
    const windowFocus = () =>
      sh.page.evaluate(() => {
        const st = (window as any).pane.store.getState();
        return st.sessions[st.sessionId].focused as number | null;
      });
    await expect.poll(windowFocus, { timeout: 10_000, message: 'the person’s pane focused in the window' }).toBe(mine);
    // The agent, in its own sandboxed shell (its token, its .access): its pane focused, and a pane of its own that writes what it is typed.
    const before = new Set(list().map((p) => p.n));
    expect(sh.cli('send', '-t', String(shellPane), 'pane focus -t $PANE_ID; pane split -- sh -c "cat > $HOME/captured"').code).toBe(0);
    const made = () => list().find((p) => !before.has(p.n) && p.owner === 'mallory')?.n ?? null;
    await expect.poll(made, { timeout: 20_000, message: 'the agent’s split' }).not.toBeNull();
    const trap = made()!;
    // The person types on: the keys reach their own shell, not the agent's pane.
    await sh.page.keyboard.type('echo person-typed-$((6*7))');
    await sh.page.keyboard.press('Enter');
    await waitScreen(sh.page, mine, 'person-typed-42', 20_000);
    expect(sh.cli('output', '-t', String(trap)).stdout).not.toContain('person-typed');
    expect(await windowFocus()).toBe(mine);
    await shot(sh.page, 'agents-07-focus-stays');
    // A float the agent opens from its shell is drawn beside the person's pane, never over it (decision 060).
    const had = new Set(list().map((p) => p.n));
    expect(sh.cli('send', '-t', String(shellPane), 'pane new --float -- sh -c "echo agent-float-$((6*7)); exec cat"').code).toBe(0);
    const floated = () => list().find((p) => !had.has(p.n) && p.owner === 'mallory')?.n ?? null;
    await expect.poll(floated, { timeout: 20_000, message: 'the agent’s float' }).not.toBeNull();
    const fl = floated()!;
    await waitScreen(sh.page, fl, 'agent-float-42', 20_000);
    const box = async (n: number) => (await region(sh.page, n).boundingBox())!;
    const [theirs, ours] = [await box(fl), await box(mine)];
    const apart = theirs.x >= ours.x + ours.width || ours.x >= theirs.x + theirs.width || theirs.y >= ours.y + ours.height || ours.y >= theirs.y + theirs.height;
    expect(apart, `the agent's float ${JSON.stringify(theirs)} and the person's pane ${JSON.stringify(ours)}`).toBe(true);
    expect(await windowFocus()).toBe(mine);
    // Its tag says whose it is (and the split it made too); the person's own pane says nothing of the kind.
    await expect.poll(() => region(sh.page, fl).locator('.tag-owner').textContent(), { timeout: 5_000 }).toBe("mallory's");
    expect(await region(sh.page, trap).locator('.tag-owner').textContent()).toBe("mallory's");
    expect(await region(sh.page, mine).locator('.tag-owner').count()).toBe(0);
    expect(await region(sh.page, shellPane).locator('.tag-owner').count()).toBe(0);
    await shot(sh.page, 'agents-08-float-beside');
    // No room beside the person's pane (the agent's panes closed or minimised: the person's is the whole view): its
    // next float opens hidden, its own CLI says so, and the window tells the person in a notice that shows it when clicked.
    for (const n of [fl, trap]) expect(sh.cli('close', '-t', String(n)).code).toBe(0);
    // Every other pane of the session (earlier tests' agents too) put away by the person, so theirs is the whole view.
    const sessionOf = (n: number) => (JSON.parse(sh.cli('ls', '--json').stdout) as { n: number; session: string }[]).find((p) => p.n === n)!.session;
    const here = sessionOf(mine);
    for (const p of JSON.parse(sh.cli('ls', '--json').stdout) as { n: number; session: string }[]) {
      if (p.session === here && p.n !== mine) expect(sh.cli('hide', '-t', String(p.n)).code).toBe(0);
    }
    expect(await windowFocus()).toBe(mine);
    const had2 = new Set(list().map((p) => p.n));
    expect(sh.cli('send', '-t', String(shellPane), 'pane new --float -- sh -c "echo hidden-float-$((6*7)); exec cat"').code).toBe(0);
    const hiddenOne = () => list().find((p) => !had2.has(p.n) && p.owner === 'mallory')?.n ?? null;
    await expect.poll(hiddenOne, { timeout: 20_000, message: 'the agent’s second float' }).not.toBeNull();
    const hid = hiddenOne()!;
    await expect.poll(() => sh.cli('screen', '-t', String(shellPane)).stdout, { timeout: 10_000 }).toMatch(new RegExp(`pane ${hid} opened hidden: shown, it would cover the pane the person is typing in`));
    const notice = sh.page.locator(`.notice[data-pane="${hid}"]`);
    await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toMatch(/^mallory opened sh hidden: shown, it would cover the pane you are typing in/);
    expect(await region(sh.page, hid).isVisible()).toBe(false);
    expect(await windowFocus()).toBe(mine);
    await shot(sh.page, 'agents-09-float-hidden-notice');
    // The person clicks it: shown and focused, by the person's choice.
    await notice.locator('.notice-go').click();
    await expect.poll(windowFocus, { timeout: 10_000 }).toBe(hid);
    await waitScreen(sh.page, hid, 'hidden-float-42', 20_000);
    await shot(sh.page, 'agents-10-float-shown-by-person');
    // The person clicks back into their own pane, beneath it, where there is no room beside: the server hides the
    // agent's float again, in the same publish as the focus, and the window says why (not a float that just went).
    const [over, under] = [await box(hid), await box(mine)];
    const spot = [
      { x: under.x + 4, y: under.y + under.height - 4 },
      { x: under.x + under.width - 4, y: under.y + under.height - 4 },
      { x: under.x + 4, y: under.y + 24 },
    ].find((p) => !(p.x >= over.x && p.x <= over.x + over.width && p.y >= over.y && p.y <= over.y + over.height));
    expect(spot, `a spot of pane ${mine} ${JSON.stringify(under)} outside the float ${JSON.stringify(over)}`).toBeDefined();
    await sh.page.mouse.click(spot!.x, spot!.y);
    await expect.poll(windowFocus, { timeout: 10_000 }).toBe(mine);
    await expect.poll(() => region(sh.page, hid).isVisible(), { timeout: 10_000 }).toBe(false);
    await expect
      .poll(() => notice.locator('.notice-go').textContent(), { timeout: 10_000 })
      .toBe(`mallory's sh is hidden: it covered pane ${mine}, which you moved to and type in (click to show it)`);
    await shot(sh.page, 'agents-11-float-kept-off-notice');
  }, 120_000);
});
