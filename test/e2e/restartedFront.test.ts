// A window opened from a server's own address (`pane start --serve`, `pane url`) whose
// server is started again on the same port: the new server's launch cookie is a new
// one, so it answers and refuses the window. The window says that, and what will mend
// it, and stops trying; it had said "the pane server is not answering" and retried
// forever.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, until, type Shell } from './shell';

/* eslint-disable @typescript-eslint/no-explicit-any */
const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(chromiumMissing)(`a window whose server started again${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  let sh: Shell | undefined;
  let again: ReturnType<typeof spawn> | undefined;
  afterAll(async () => {
    if (again && again.exitCode === null) {
      again.kill('SIGTERM');
      await new Promise((r) => {
        again!.once('exit', r);
        setTimeout(r, 5000);
      });
    }
    await sh?.close();
  });

  it('says the server does not know it and what to open, and stops retrying', async () => {
    sh = await openShell();
    const port = new URL(sh.url).port;
    sh.proc.kill('SIGKILL');
    await until(sh.page, 'the window to lose its server', () => (window as any).pane.store.getState().conn.state === 'closed');
    // The same server, started again on the same port (as after a crash).
    again = spawn(process.execPath, [path.join(root, 'dist/start.mjs'), '--serve', '--socket', sh.socket, '--port', port], { cwd: sh.dir, env: sh.env, stdio: 'ignore' });
    await until(
      sh.page,
      'the window to say the server does not know it',
      () => {
        const st = (window as any).pane.store.getState();
        return st.conn.state === 'ended' && st.notices.some((n: { text: string }) => n.text.startsWith('the pane server does not know this window'));
      },
      30_000,
    );
    const text = await sh.page.evaluate(() => (window as any).pane.store.getState().notices.map((n: { text: string }) => n.text).join('\n') as string);
    expect(text).toContain('open a new window at the address pane url prints');
    expect(text).not.toContain('not answering');
    expect(await sh.page.locator('.statusline').textContent()).toContain('disconnected');
    // And it stays so: no retry comes after.
    await sh.page.waitForTimeout(3000);
    expect(await sh.page.evaluate(() => (window as any).pane.store.getState().conn.state)).toBe('ended');
  }, 90_000);
});
