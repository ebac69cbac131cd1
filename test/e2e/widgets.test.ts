// Widget panes (issue 37) in a real Chromium window on a real server: a JSON file
// dropped into the user's apps directory becomes an app; its pane shows values bound
// to namespace files, live; its actions run as the window's principal and a refusal
// shows where it was clicked; a bad file is reported by file and field; deleting the
// file takes the app away; the shipped widgets draw (screenshots in test-results/).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, region, shot, until, view, waitScreen, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
let sh: Shell;

/** axe-core's findings inside one pane's widget body (Playwright's evaluate is not bound by the page's CSP). */
async function axeFindings(pane: number | null): Promise<string[]> {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await sh.page.evaluate(source);
  return sh.page.evaluate(async (n) => {
    const r = await (window as any).axe.run(n === null ? document : document.querySelector(`section[data-pane="${n}"] .wg-body`), { resultTypes: ['violations'] });
    return r.violations.map((v: { id: string; nodes: { target: string[] }[] }) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`);
  }, pane);
}

const launch = (app: string) => sh.page.evaluate(async (id) => ((await (window as any).pane.client.call('apps/launch', { app: id })) as { pane: number }).pane, app);

/** Waits until the app list the window holds has (or lacks) an app. */
const appListed = (id: string, present = true) =>
  until(sh.page, `app ${id} ${present ? 'listed' : 'gone'}`, new Function(`return (window.pane.store.getState().apps.apps.some((a) => a.id === ${JSON.stringify(id)})) === ${present}`) as () => boolean);

describe.skipIf(chromiumMissing)(`widget panes in Chromium${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  let shellPane: number;
  let appsDir: string;

  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1400, height: 860 } });
    shellPane = (await view(sh.page)).focused!;
    appsDir = path.join(sh.configDir, 'apps');
    fs.mkdirSync(appsDir, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('a dropped file becomes a live widget pane: bound values follow the state, actions run as the window, refusals show where clicked', async () => {
    const file = {
      name: 'Watch',
      signature: 'com.example.watch',
      kind: 'widget',
      widget: {
        type: 'column',
        children: [
          { type: 'text', id: 'tag', label: 'shell tag', bind: { path: `/${shellPane}/tag` } },
          { type: 'table', id: 'index', label: 'panes', bind: { path: '/index', as: 'lines', fields: ['id', 'host', 'session', 'sig', 'owner', 'quadrant', 'state', 'cwd', 'tag'] }, columns: [{ title: 'pane', field: 'id' }, { title: 'app', field: 'sig' }, { title: 'state', field: 'state' }], actions: [{ label: 'zoom', run: 'zoom', pane: '{id}' }] },
          { type: 'input', id: 'rename', label: 'rename the shell', action: { run: 'name', args: ['{value}'], pane: String(shellPane) } },
          { type: 'button', id: 'bad', label: 'close pane 999', action: { write: '/999/ctl', data: 'close' } },
          { type: 'text', id: 'missing', label: 'nothing', bind: { path: '/no/such/file' } },
        ],
      },
    };
    fs.writeFileSync(path.join(appsDir, 'watch.json'), JSON.stringify(file));
    await appListed('watch');
    const w = await launch('watch');
    const body = region(sh.page, w).locator('.wg-body');
    await body.waitFor();
    // The tag as the file reads now: the shell's name.
    const tagNow = sh.cli('cat', `/${shellPane}/tag`).stdout.trim();
    await until(sh.page, 'the bound tag shown', new Function(`return document.querySelector('section[data-pane="${w}"] [data-widget="tag"] .wg-value')?.textContent === ${JSON.stringify(tagNow)}`) as () => boolean);
    // A table row per pane, the widget's own included.
    await until(sh.page, 'a row per pane', new Function(`return document.querySelectorAll('section[data-pane="${w}"] [data-widget="index"] tbody tr').length === 2`) as () => boolean);
    // A path that does not exist says so where its value would be.
    expect(await body.locator('[data-widget="missing"] .wg-error').textContent()).toMatch(/no\/such\/file/);

    // Live: the shell's tag changed from the CLI shows without a reload; markup in it stays text.
    expect(sh.cli('tag', '-t', String(shellPane), '--name', '<img src=x onerror=alert(1)>build').code).toBe(0);
    await until(sh.page, 'the new tag shown', new Function(`return (document.querySelector('section[data-pane="${w}"] [data-widget="tag"] .wg-value')?.textContent ?? '').startsWith('<img src=x onerror=alert(1)>build')`) as () => boolean);
    expect(await body.locator('img').count()).toBe(0);

    // An input's action runs the word as the window: the shell's tag name changes.
    await body.locator('[data-widget="rename"] input').fill('renamed-by-widget');
    await body.locator('[data-widget="rename"] input').press('Enter');
    await until(sh.page, 'the shell renamed', new Function(`return window.pane.store.getState().panes[${shellPane}].tag.name === 'renamed-by-widget'`) as () => boolean);
    // A value that would be two arguments or a line is refused before anything is sent.
    await body.locator('[data-widget="rename"] input').fill('-rf');
    await body.locator('[data-widget="rename"] input').press('Enter');
    await until(sh.page, 'the refusal shown', new Function(`return /starts with "-"/.test(document.querySelector('section[data-pane="${w}"] [data-widget="rename"] .wg-refused')?.textContent ?? '')`) as () => boolean);
    // A row's action: zoom the shell, from its row.
    await body.locator('[data-widget="index"] tbody tr', { hasText: 'com.pane' }).first().locator('button', { hasText: 'zoom' }).click();
    await until(sh.page, 'a pane zoomed', () => {
      const st = (window as any).pane.store.getState();
      return st.sessions[st.sessionId].zoomed != null;
    });
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/zoom', { pane: n, on: false }), (await view(sh.page)).zoomed ?? shellPane).catch(() => undefined);
    // A refused action shows the server's refusal beside the button.
    await body.locator('[data-widget="bad"] button').click();
    await until(sh.page, 'the server refusal shown', new Function(`return /refused: .*999/.test(document.querySelector('section[data-pane="${w}"] [data-widget="bad"] .wg-refused')?.textContent ?? '')`) as () => boolean);

    // The pane's body file is the tree as text, values read as the reader.
    const text = sh.cli('cat', `/${w}/body`).stdout;
    expect(text).toContain('text shell tag: renamed-by-widget');
    expect(text).toMatch(/table panes: 2 rows/);
    expect(text).toMatch(/text nothing: \[.*no\/such\/file/);
    await shot(sh.page, 'widget-watch');
    expect(await axeFindings(w)).toEqual([]);

    // The file edited: the pane redraws from the new tree. Deleted: the app goes and the pane says so.
    file.widget.children.unshift({ type: 'markdown', id: 'md', text: '# Watching\n\n- **live** values' } as any);
    fs.writeFileSync(path.join(appsDir, 'watch.json'), JSON.stringify(file));
    await until(sh.page, 'the edited tree drawn', new Function(`return document.querySelector('section[data-pane="${w}"] [data-widget="md"] strong')?.textContent === 'live'`) as () => boolean);
    fs.rmSync(path.join(appsDir, 'watch.json'));
    await appListed('watch', false);
    await until(sh.page, 'the pane says its app is gone', new Function(`return /app file “watch” is gone/.test(document.querySelector('section[data-pane="${w}"] .pane-body-undrawn')?.textContent ?? '')`) as () => boolean);
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/close', { pane: n }), w);
  }, 90_000);

  it('a widget file with an error is reported by file and field, and the other apps keep working', async () => {
    fs.writeFileSync(path.join(appsDir, 'broken.json'), JSON.stringify({ name: 'Broken', signature: 'com.example.broken', kind: 'widgets', widget: { type: 'column', children: [{ type: 'gauge', bind: { path: '/index' } }, { type: 'meter' }, { type: 'dial' }] } }));
    await until(sh.page, 'the error as a notice', () => (window as any).pane.store.getState().notices.some((n: { text: string }) => /^broken\.json: widget\.children\[0\]\.type: Invalid discriminator value\. Expected 'row' \| 'column'/.test(n.text)));
    // One notice for the file, however many fields it gets wrong (three had been three chips, each cut to "/work/…").
    const mine = await sh.page.evaluate(() => (window as any).pane.store.getState().notices.filter((n: { text: string }) => n.text.startsWith('broken.json:')).map((n: { text: string }) => n.text) as string[]);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain(`(and 2 more errors in this file) — in ${appsDir}`);
    await appListed('agents-board');
    fs.rmSync(path.join(appsDir, 'broken.json'));
  }, 30_000);

  it('a table and a list fit their pane as it narrows: actions into a … menu, then rows as cards; wider again, a table', async () => {
    const file = {
      name: 'Fit',
      signature: 'com.example.fit',
      kind: 'widget',
      widget: {
        type: 'column',
        children: [
          {
            type: 'table',
            id: 'wide',
            label: 'panes',
            bind: { path: '/index', as: 'lines', fields: ['id', 'host', 'session', 'sig', 'owner', 'quadrant', 'state', 'cwd', 'tag'] },
            columns: [{ title: 'pane', field: 'id' }, { title: 'app', field: 'sig' }, { title: 'session', field: 'session' }, { title: 'state', field: 'state' }, { title: 'owner', field: 'owner' }, { title: 'where', field: 'quadrant' }],
            actions: [{ label: 'zoom', run: 'zoom', pane: '{id}' }, { label: 'focus', run: 'focus', pane: '{id}' }],
          },
          { type: 'list', id: 'items', label: 'each pane', bind: { path: '/index', as: 'lines', fields: ['id', 'host', 'session', 'sig', 'owner', 'quadrant', 'state', 'cwd', 'tag'] }, item: 'pane {id} ({sig}) in {session}', actions: [{ label: 'name it', run: 'name', args: ['listed'], pane: '{id}' }, { label: 'focus', run: 'focus', pane: '{id}' }] },
        ],
      },
    };
    fs.writeFileSync(path.join(appsDir, 'fit.json'), JSON.stringify(file));
    await appListed('fit');
    const w = await launch('fit');
    const body = region(sh.page, w).locator('.wg-body');
    await until(sh.page, 'the table drawn', new Function(`return document.querySelectorAll('section[data-pane="${w}"] [data-widget="wide"] :is(tbody tr, .wg-cards > li)').length >= 2`) as () => boolean);
    /** What the table and the list are drawn as, and whether anything in the body runs past its right edge (it had scrolled sideways). */
    const drawn = () =>
      sh.page.evaluate((n) => {
        const b = document.querySelector(`section[data-pane="${n}"] .wg-body`)!;
        const t = b.querySelector('[data-widget="wide"]')!;
        const list = b.querySelector('[data-widget="items"]')!;
        const edge = b.getBoundingClientRect().right;
        const past = [...b.querySelectorAll('td, dd, dt, li, button, span')].filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > edge + 1).length;
        return {
          table: t.querySelector('.wg-cards') ? 'cards' : t.querySelector('td.wg-row-menu') ? 'folded' : 'table',
          list: list.querySelector('li button[aria-haspopup]') ? 'folded' : 'inline',
          past,
        };
      }, w);
    const width = async (cols: number, want: { table: string; list: string }) => {
      expect(sh.cli('float', '-t', String(w), '--w', String(cols), '--h', '30').code).toBe(0);
      await expect.poll(drawn, { timeout: 10_000 }).toEqual({ ...want, past: 0 });
    };
    // Wide: the table as written, with its buttons; the list's buttons after each item.
    await width(150, { table: 'table', list: 'inline' });
    expect(await body.locator('[data-widget="wide"] td.wg-actions button').first().textContent()).toBe('zoom');
    // Narrower than the table with its buttons (~75 cells): the actions go behind each row's … menu; the list's items still fit theirs.
    await width(64, { table: 'folded', list: 'inline' });
    // Narrower than the table itself: a card a row, its first field heading it, every other one as title and value;
    // narrower than a list item with its buttons (~49 cells), the list's actions behind each item's … menu.
    await width(30, { table: 'cards', list: 'folded' });
    const card = body.locator('[data-widget="wide"] .wg-cards > li', { hasText: 'com.example.fit' }).first();
    await expect.poll(() => card.locator('[data-field="id"]').textContent()).toBe(`pane ${w}`);
    expect(await card.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['app', 'session', 'state', 'owner']));
    await shot(sh.page, 'widget-fit-cards');
    expect(await axeFindings(w)).toEqual([]);
    // A card's menu runs the row's action: focus its pane.
    await card.getByRole('button', { name: `actions for ${w}` }).click();
    await sh.page.getByRole('menuitem', { name: /^focus/ }).click();
    await until(sh.page, 'the pane focused from its card', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${w}`) as () => boolean);
    // A list item's menu: its action runs, and what it answered shows under the list.
    const item = body.locator('[data-widget="items"] li', { hasText: `pane ${w} ` });
    await item.getByRole('button', { name: /^actions for pane / }).click();
    await sh.page.getByRole('menuitem', { name: /^name it/ }).click();
    await until(sh.page, 'the pane named from the list', new Function(`return window.pane.store.getState().panes[${w}].tag.name === 'listed'`) as () => boolean);
    // Wider again: a table with its buttons, not left folded.
    await width(150, { table: 'table', list: 'inline' });
    fs.rmSync(path.join(appsDir, 'fit.json'));
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/close', { pane: n }), w);
  }, 60_000);

  it('the shipped widgets draw: agents board, pane monitor, pane log', async () => {
    const board = await launch('agents-board');
    await until(sh.page, 'the board empty note', new Function(`return /No agents yet/.test(document.querySelector('section[data-pane="${board}"] [data-widget="agents"]')?.textContent ?? '')`) as () => boolean);
    await until(sh.page, 'the board log has lines', new Function(`return (document.querySelector('section[data-pane="${board}"] pre[role="log"]')?.textContent ?? '').includes('new')`) as () => boolean);
    // An agent started as a person would: its row appears, live, with its prompt; focus goes to its pane from the row.
    const proj = path.join(sh.dir, 'proj');
    fs.mkdirSync(proj);
    const run = sh.cli('agent', 'run', '--app', 'demo-agent', '--cwd', proj);
    expect(run.code, run.stderr).toBe(0);
    const [name, id] = run.stdout.trim().split(' ') as [string, string];
    const agentPane = Number(id.split(':')[1]);
    await waitScreen(sh.page, agentPane, 'demo>', 30_000);
    expect(sh.cli('send', '-t', String(agentPane), 'tidy the parser in src/parse.ts').code).toBe(0);
    // A row: a table's, or a card where the pane is narrower than the table (below).
    const row = region(sh.page, board).locator('[data-widget="agents"] :is(tbody tr, .wg-cards > li)', { hasText: name });
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('tidy the parser in src/parse.ts');
    expect(await row.locator('[data-field="pane"]').textContent()).toBe(String(agentPane));
    const act = async (label: string) => {
      const direct = row.locator('td.wg-actions button', { hasText: label });
      if ((await direct.count()) > 0) return direct.click({ timeout: 10_000 });
      await row.getByRole('button', { name: `actions for ${name}` }).click({ timeout: 10_000 });
      await sh.page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click({ timeout: 10_000 });
    };
    await region(sh.page, agentPane).locator('.tag').first().click({ position: { x: 2, y: 2 } }).catch(() => undefined);
    await region(sh.page, board).click({ position: { x: 5, y: 40 } });
    await until(sh.page, 'the board focused', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${board}`) as () => boolean);
    await act('focus');
    await until(sh.page, 'the agent focused from its row', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].focused === ${agentPane}`) as () => boolean);
    // Mail from its row: the agent's mail view opens (its own pane, attrs view=mail), as the tag's word does.
    await act('mail');
    await until(sh.page, 'the mail view open for the agent', new Function(`return Object.values(window.pane.store.getState().panes).some((p) => p.attrs?.view === 'mail' && p.attrs?.['view.agent'] === ${JSON.stringify(name)})`) as () => boolean);
    const mailPane = await sh.page.evaluate((who) => Number(Object.values((window as any).pane.store.getState().panes as Record<string, { n: number; attrs?: Record<string, string> }>).find((p) => p.attrs?.view === 'mail' && p.attrs?.['view.agent'] === who)!.n), name);
    await waitScreen(sh.page, mailPane, `To: ${name}`, 15_000);
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/close', { pane: n }), mailPane);
    // Its worktree's diff: this agent has none, and the refusal shows beside the button.
    await act('diff');
    await expect.poll(() => region(sh.page, board).textContent(), { timeout: 10_000 }).toContain('has no worktree of its own to review');
    await shot(sh.page, 'widget-agents-board');
    expect(await axeFindings(board)).toEqual([]);
    // A narrow board: the row's actions, which had scrolled out of sight at its end, fold into a … menu at its start.
    expect(sh.cli('float', '-t', String(board), '--w', '34', '--h', '20').code).toBe(0);
    const menuButton = row.getByRole('button', { name: `actions for ${name}` });
    await expect.poll(() => menuButton.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.locator('.wg-actions').count()).toBe(0);
    const inView = await sh.page.evaluate(({ n, who }) => {
      const b = [...document.querySelectorAll(`section[data-pane="${n}"] button[aria-label="actions for ${who}"]`)][0]!.getBoundingClientRect();
      const f = document.querySelector(`section[data-pane="${n}"]`)!.getBoundingClientRect();
      return b.left >= f.left && b.right <= f.right;
    }, { n: board, who: name });
    expect(inView).toBe(true);
    await menuButton.click();
    const menu = sh.page.getByRole('menu', { name: `actions for ${name}` });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([expect.stringMatching(/^focus/), expect.stringMatching(/^zoom/), expect.stringMatching(/^mail/), expect.stringMatching(/^write/), expect.stringMatching(/^diff/)]);
    await shot(sh.page, 'widget-agents-board-narrow');
    await sh.page.keyboard.press('ArrowDown'); // the first item has focus; Down moves to zoom
    await sh.page.keyboard.press('Enter');
    await until(sh.page, 'the agent zoomed from the narrow row’s menu', new Function(`const st = window.pane.store.getState(); return st.sessions[st.sessionId].zoomed === ${agentPane}`) as () => boolean);
    expect(sh.cli('zoom', '-t', String(agentPane), '--off').code).toBe(0);
    expect(await axeFindings(board)).toEqual([]);
    await sh.page.evaluate(async (ns) => Promise.all(ns.map((n) => (window as any).pane.client.call('pane/close', { pane: n }))), [board, agentPane]);

    const mon = await launch('pane-monitor');
    // Each figure is its own field of /server/stats: panes is the count of panes, not the last field read.
    await until(sh.page, 'the monitor counts panes', new Function(`return Number(document.querySelector('section[data-pane="${mon}"] .wg-grid .wg-value')?.textContent) === Object.keys(window.pane.store.getState().panes).length`) as () => boolean);
    await until(sh.page, 'a row per pane with its memory', new Function(`return document.querySelectorAll('section[data-pane="${mon}"] [data-widget="panes"] :is(tbody tr, .wg-cards > li)').length >= 2`) as () => boolean);
    const monRow = region(sh.page, mon).locator('[data-widget="panes"] :is(tbody tr, .wg-cards > li)').first();
    const memory = await monRow.locator('[data-field="rssBytes"]').textContent();
    // Figures read with their units: memory in MiB (it had read 77.9 under "memory MiB"), time as time.
    expect(memory).toMatch(/^\d+(\.\d)? (KiB|MiB|GiB)$/);
    const uptime = region(sh.page, mon).locator('.wg-grid .wg-text', { hasText: 'uptime' }).locator('.wg-value');
    expect(await uptime.textContent()).toMatch(/^(\d+(\.\d+)? s|\d+m\d\ds)$/);
    // The latency table: the echo of what the window typed, and the requests the window made (its own reads among them), with medians.
    const latencyRows = region(sh.page, mon).locator('[data-widget="latency"] :is(tbody tr, .wg-cards > li)');
    const echo = latencyRows.filter({ hasText: 'echo' });
    await expect.poll(async () => Number(await echo.locator('[data-field="count"]').textContent()), { timeout: 10_000 }).toBeGreaterThan(0);
    const reads = latencyRows.filter({ hasText: 'ns/read' });
    await expect.poll(async () => await reads.first().locator('[data-field="p50Ms"]').textContent(), { timeout: 10_000 }).toMatch(/^\d+(\.\d+)? ms$/);
    expect(parseFloat((await reads.first().locator('[data-field="p50Ms"]').textContent()) ?? '')).toBeGreaterThan(0);
    // Memory reads as memory (93.4 MiB, not 97938432 bytes), and each figure of its grid stays in its own cell.
    await expect.poll(() => region(sh.page, mon).locator('.wg-grid .wg-spark .wg-value').first().textContent(), { timeout: 10_000 }).toMatch(/^\d+\.\d (KiB|MiB|GiB)$/);
    const overlaps = await sh.page.evaluate(
      (n) =>
        // Every drawn part of a cell ends inside that cell (a sparkline's svg had run 160 px over the next one).
        [...document.querySelectorAll(`section[data-pane="${n}"] .wg-grid > *`)].flatMap((cell) => {
          const c = cell.getBoundingClientRect();
          return [...cell.querySelectorAll('*')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && (r.left < c.left - 1 || r.right > c.right + 1);
          });
        }).length,
      mon,
    );
    expect(overlaps).toBe(0);
    await shot(sh.page, 'widget-pane-monitor');
    expect(await axeFindings(mon)).toEqual([]);
    await sh.page.evaluate(async (n) => (window as any).pane.client.call('pane/close', { pane: n }), mon);

    const log = await launch('pane-log');
    await until(sh.page, 'the log shows the monitor closing', new Function(`return (document.querySelector('section[data-pane="${log}"] pre[role="log"]')?.textContent ?? '').includes('close')`) as () => boolean);
    await shot(sh.page, 'widget-pane-log');
    expect(await axeFindings(log)).toEqual([]);
    // The whole window with the log open: the main view holds none either.
    expect(await axeFindings(null)).toEqual([]);
  }, 60_000);

  it('the diff review on a real worktree: the review word opens it, a file accepted from its row is a commit on the agent’s branch, reject restores the rest', async () => {
    // A repository and an agent launched on it with a worktree of its own, as a person would.
    const repo = path.join(sh.dir, 'shop');
    fs.mkdirSync(repo);
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'p', GIT_AUTHOR_EMAIL: 'p@x', GIT_COMMITTER_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@x' } });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(repo, 'b.txt'), 'keep me\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'init');
    const run = sh.cli('agent', 'run', '--app', 'demo-agent', '--cwd', repo, '--worktree');
    expect(run.code, run.stderr).toBe(0);
    const agentPane = Number(run.stdout.trim().split(' ')[1]!.split(':')[1]);
    // The window learns the pane's worktree from its attrs event, a moment after the CLI has its answer.
    const wt = await until(sh.page, 'the agent pane’s worktree in the window', new Function(`return window.pane.store.getState().panes[${agentPane}]?.attrs?.['agent.worktree'] || null`) as () => string | null);
    expect(wt).toBeTruthy();
    fs.writeFileSync(path.join(wt!, 'a.txt'), 'two\n');
    fs.rmSync(path.join(wt!, 'b.txt'));
    expect(sh.cli('exec', '-t', String(agentPane), 'review').code).toBe(0);
    await until(sh.page, 'the review widget', () => Object.values((window as any).pane.store.getState().panes).some((p: any) => p.attrs?.app === 'diff-review'));
    const review = await sh.page.evaluate(() => (Object.values((window as any).pane.store.getState().panes) as any[]).find((p) => p.attrs?.app === 'diff-review').n as number);
    const rows = region(sh.page, review).locator('[data-widget="files"] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => region(sh.page, review).locator('[data-widget="diff"]').textContent(), { timeout: 10_000 }).toContain('+two');
    // Its title is the agent pane's name, not its tag's words.
    expect(await region(sh.page, review).locator('[data-widget="who"] .wg-value').textContent()).toBe(run.stdout.trim().split(' ')[0]);
    await shot(sh.page, 'widget-diff-review');
    expect(await axeFindings(review)).toEqual([]);
    // Accept a.txt from its row: a commit on the agent's branch (the list is against the branch's base, so it stays listed).
    await rows.filter({ hasText: 'a.txt' }).locator('button', { hasText: 'accept' }).click();
    await expect.poll(() => git(wt!, 'log', '-1', '--format=%s'), { timeout: 10_000 }).toMatch(/a\.txt, accepted in review/);
    // Reject all: b.txt is back; what is left against the base is the accepted commit.
    await region(sh.page, review).locator('button', { hasText: 'reject all' }).click();
    await expect.poll(() => fs.existsSync(path.join(wt!, 'b.txt')), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain('a.txt');
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('init'); // the person's branch is untouched
  }, 90_000);
});
