// Agents' news in the window, end to end: two demo agents in panes of a real server
// (`pane serve --http`) converge — their prompts recorded through `pane awareness
// prompt`, as their hooks would — and the window shows ONE notice for the pair, in
// the strip between the panes and the status line (never over a pane body), updated
// in place when they converge again, withdrawn when the predictions resolve. The
// status line counts the agents waiting, and a key jumps to the next one waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sh: Shell;
const agents: { name: string; pane: number }[] = [];

const prompt = (name: string, text: string) => {
  const r = sh.cli('awareness', 'prompt', name, text);
  expect(r.code, r.stderr).toBe(0);
};
const strip = () => sh.page.locator('.notice-strip');
const converging = () => strip().locator('.notice[data-key^="converge:"]');

/** Every rectangle of a pane body on screen, and the strip's. */
const rects = () =>
  sh.page.evaluate(() => {
    const r = (e: Element) => {
      const b = e.getBoundingClientRect();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    return { strip: r(document.querySelector('.notice-strip')!), notices: [...document.querySelectorAll('.notice')].map(r), bodies: [...document.querySelectorAll('.pane-body')].map(r) };
  });
const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe.skipIf(chromiumMissing)(`agents' notices${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ entry: 'cli', viewport: { width: 1280, height: 800 } });
    for (let i = 0; i < 2; i++) {
      const run = sh.cli('agent', 'run', '--app', 'demo-agent', '--cwd', sh.dir);
      expect(run.code, run.stderr).toBe(0);
      const [name, id] = run.stdout.trim().split(' ') as [string, string];
      agents.push({ name, pane: Number(id.split(':')[1]) });
    }
    for (const a of agents) await waitScreen(sh.page, a.pane, 'demo>', 30_000);
    // At its prompt before any task an agent is ready, not calling for the person.
    for (const a of agents) await until(sh.page, `${a.name} ready at its prompt`, new Function(`return window.pane.store.getState().panes[${a.pane}]?.attrs['agent.state'] === 'ready';`) as () => boolean, 30_000);
    // Each asks the person for a permission, as Claude Code's Notification hook says it.
    for (const a of agents) {
      await sh.page.evaluate(
        (p) => (window as any).pane.client.act('agent/hook', { pane: p, input: { hook_event_name: 'Notification', session_id: `perm-${p}`, notification_type: 'permission_prompt', message: 'Claude needs your permission to use Edit' } }),
        a.pane,
      );
    }
    for (const a of agents) await until(sh.page, `${a.name} needing the person`, new Function(`return window.pane.store.getState().panes[${a.pane}]?.attrs['agent.state'] === 'waiting';`) as () => boolean, 30_000)
  }, 90_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('counts agents waiting in the status line, and the key jumps to the next one waiting', async () => {
    const counts = sh.page.locator('.sl-agents');
    await expect.poll(() => counts.getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/^agents: 2 need you, 0 working, 0 done, 0 with unread mail$/);
    // Two standing "waiting" notices, one per agent, in the strip.
    await expect.poll(() => strip().locator('.notice[data-key^="waiting:"]').count(), { timeout: 10_000 }).toBe(2);
    const [x, y] = agents as [{ name: string; pane: number }, { name: string; pane: number }];
    await sh.page.evaluate((p) => (window as any).pane.client.act('pane/focus', { pane: p }), 1);
    await sh.page.keyboard.press('Control+Shift+A');
    await until(sh.page, 'the first waiting agent focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${x.pane};`) as () => boolean);
    await sh.page.keyboard.press('Control+Shift+A');
    await until(sh.page, 'the next waiting agent focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${y.pane};`) as () => boolean);
  }, 60_000);

  it('shows one notice for two agents converging, updates it in place when they converge again, and never over a pane body', async () => {
    const [x, y] = agents as [{ name: string; pane: number }, { name: string; pane: number }];
    prompt(x.name, 'style the settings page css layout');
    prompt(y.name, 'database migration for the orders table');
    for (const t of ['refresh the jwt auth token on login', 'jwt login session expiry for auth', 'auth login: verify the jwt token signature', 'jwt auth login token rotation']) {
      prompt(x.name, t);
      prompt(y.name, t.replace('refresh', 'review'));
    }
    await expect.poll(() => converging().count(), { timeout: 20_000 }).toBe(1);
    const key = `converge:${[x.name, y.name].sort().join('+')}`;
    expect(await converging().getAttribute('data-key')).toBe(key);
    expect(await converging().textContent()).toMatch(new RegExp(`${x.name} \\(.+\\) and ${y.name} \\(.+\\) converge on|${y.name} \\(.+\\) and ${x.name} \\(.+\\) converge on`));
    const updatesBefore = await sh.page.evaluate((k) => (window as any).pane.store.getState().notices.find((n: any) => n.key === k)?.updates ?? -1, key);

    // They converge again, on more: still one notice, updated in place.
    for (const t of ['jwt auth token cache in redis', 'redis cache for the jwt auth tokens', 'auth jwt redis cache eviction']) {
      prompt(x.name, t);
      prompt(y.name, t);
    }
    await expect.poll(() => sh.page.evaluate((k) => (window as any).pane.store.getState().notices.find((n: any) => n.key === k)?.updates ?? -1, key), { timeout: 20_000 }).toBeGreaterThan(updatesBefore);
    expect(await converging().count()).toBe(1);
    const history = await sh.page.evaluate((k) => (window as any).pane.store.getState().history.filter((h: any) => h.key === k).map((h: any) => h.what), key);
    expect(history[0]).toBe('shown');
    expect(history.slice(1).every((w: string) => w === 'updated')).toBe(true);

    // Outside every pane body: the strip is its own line above the status line.
    const r = await rects();
    for (const n of r.notices) for (const b of r.bodies) expect(overlaps(n, b), 'a notice covers a pane body').toBe(false);
    expect(r.notices.length).toBe(3); // two agents waiting, one convergence
    await shot(sh.page, 'notices-01-strip');
    await region(sh.page, x.pane).locator('.tag').screenshot({ path: `${process.cwd()}/test-results/notices-02-agent-tag.png` }).catch(() => undefined);
  }, 90_000);

  it('withdraws the notice when the predictions about the pair resolve, and keeps it in the history', async () => {
    const preds = JSON.parse(sh.cli('awareness', 'predictions', '--json').stdout) as { active: { id: string }[] };
    expect(preds.active.length).toBeGreaterThan(0);
    for (const p of preds.active) expect(sh.cli('awareness', 'resolve', p.id, 'prevented').code).toBe(0);
    await expect.poll(() => converging().count(), { timeout: 10_000 }).toBe(0);
    await sh.page.keyboard.press('Control+Shift+H');
    const dialog = sh.page.getByRole('dialog', { name: 'notices history' });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.locator('li').first().textContent()).toMatch(/withdrawn.*no longer converging \(they coordinated\)/);
    await shot(sh.page, 'notices-03-history');
    await sh.page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  }, 30_000);

  it('opens the peers view from a narrow agent pane as a float wide enough for its table', async () => {
    const x = agents[0]!;
    const cols = await sh.page.evaluate((p) => (window as any).pane.store.getState().panes[p].cols as number, x.pane);
    expect(cols * 0.35).toBeLessThan(72); // a split beside it would be a sliver
    const r = sh.cli('peers', '-t', String(x.pane));
    expect(r.code, r.stderr).toBe(0);
    const peers = Number(r.stdout.trim().split(':').pop());
    await until(sh.page, 'the peers view floating', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].floating.some((f) => f.pane === ${peers} && f.w >= 72);`) as () => boolean);
    await waitScreen(sh.page, peers, x.name, 20_000);
    // Its lines are cut at its width, never wrapped: every row of the table is one screen line.
    const text = await sh.page.evaluate((p) => (window as any).pane.screen(p) as string, peers);
    expect(text).toMatch(/^pane peers — \d+ agents?/m);
    await shot(sh.page, 'notices-04-peers-float');
    expect(sh.cli('close', '-t', String(peers)).code).toBe(0);
  }, 30_000);

  it('keeps an agent’s name and state in a narrow tag: topics shrink, words fold into …', async () => {
    await sh.page.setViewportSize({ width: 720, height: 560 });
    const x = agents[0]!;
    const tag = region(sh.page, x.pane).getByRole('toolbar');
    await expect.poll(() => tag.locator('.tag-more').count(), { timeout: 10_000 }).toBe(1);
    const box = async (sel: string) => (await tag.locator(sel).first().boundingBox())!;
    const tagBox = (await tag.boundingBox())!;
    // Name and state badge are whole and inside the tag; the … button is too.
    for (const sel of ['.tag-name', '.agent-state', '.tag-more']) {
      const b = await box(sel);
      expect(b.x + b.width, sel).toBeLessThanOrEqual(tagBox.x + tagBox.width + 0.5);
    }
    expect(await tag.locator('.agent-state').textContent()).toMatch(/^(needs you|working|done|ready|idle)$/);
    await region(sh.page, x.pane).locator('.tag').screenshot({ path: `${process.cwd()}/test-results/notices-05-narrow-agent-tag.png` });
    await shot(sh.page, 'notices-06-narrow-window');
    // The status line in a narrow window, its session named at length: the agents' counts and the
    // connection's state stay whole; the key hints give way, then the name (cut with an ellipsis).
    // Before, the line was cut at its right edge: "connected" went first, then the counts.
    const line = sh.page.getByRole('contentinfo', { name: 'status' });
    const named = await sh.page.evaluate(() => (window as any).pane.store.getState().sessionId as string);
    const was = await sh.page.evaluate((id) => (window as any).pane.store.getState().sessions[id].name as string, named);
    expect(sh.cli('session', 'rename', was, 'a-session-named-at-some-length-for-the-refactor').code).toBe(0);
    await expect.poll(() => line.locator('.sl-session').textContent()).toMatch(/^a-session-named/);
    for (const width of [720, 520]) {
      await sh.page.setViewportSize({ width, height: 560 });
      const lineBox = (await line.boundingBox())!;
      for (const sel of ['.sl-agents', '.sl-conn']) {
        await expect.poll(async () => { const b = (await line.locator(sel).boundingBox())!; return b.x + b.width <= lineBox.x + lineBox.width + 0.5; }, { message: `${sel} whole at ${width}px` }).toBe(true);
      }
      expect(await line.locator('.sl-conn').textContent()).toBe('connected');
    }
    const session = line.locator('.sl-session');
    expect(await session.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true); // cut, with its ellipsis
    expect(await session.getAttribute('title')).toMatch(/^a-session-named-at-some-length-for-the-refactor — sessions: /);
    await shot(sh.page, 'notices-07-narrow-status-line');
    expect(sh.cli('session', 'rename', 'a-session-named-at-some-length-for-the-refactor', was).code).toBe(0);
  }, 30_000);
});
