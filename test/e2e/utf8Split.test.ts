// A character that a read cuts in two shows whole in every view: the window (real
// Chromium) and `pane screen` (the daemon's own screen, what snapshots and viewers on a
// slow link are made from). `—` is E2 80 94: xterm 6.0 lost it when the cut came after
// its 80 (kits/client/utf8Carry.ts, decision 054), and the daemon cuts every long
// write into 256-byte pieces, so a line of them lost one at each cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, screen, view, waitScreen, type Shell } from './shell';

let sh: Shell;
const DASHES = 200;
const count = (s: string, ch: string) => s.split(ch).length - 1;

describe.skipIf(chromiumMissing)(`split characters${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell();
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('a dash written in two halves 0.3 s apart, and a 600-byte line of dashes, show whole in the window and in pane screen', async () => {
    const n = (await view(sh.page)).focused!;
    await waitScreen(sh.page, n, /[$#] $/m);
    // Two writes apart: the daemon reads `A E2 80`, then `94 B`, and sends the window two frames.
    // Then one write of 200 dashes: one read, which the daemon's screen takes in 256-byte pieces.
    const line = [
      'clear',
      "printf 'split:A\\342\\200'; sleep 0.3; printf '\\224B:done\\n'",
      "d=$(printf '\\342\\200\\224\\342\\200\\224\\342\\200\\224\\342\\200\\224\\342\\200\\224')",
      'd=$d$d$d$d$d$d$d$d$d$d; printf "long:%s:end\\n" "$d$d$d$d"',
    ].join('; ');
    const r = sh.cli('send', '-t', String(n), line);
    expect(r.code, r.stderr).toBe(0);
    // Not /:end/ alone: the typed command holds that too, and shows before clear runs.
    const shown = await waitScreen(sh.page, n, /—:end$/m);
    expect(shown, 'the window').toContain('split:A—B:done');
    expect(count(shown, '—'), shown).toBe(DASHES + 1);

    const cli = sh.cli('screen', '-t', String(n));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout, 'pane screen').toContain('split:A—B:done');
    expect(count(cli.stdout, '—'), cli.stdout).toBe(DASHES + 1);
    // Nothing stood in for a lost byte either.
    expect(cli.stdout).not.toContain('\ufffd');
    expect(await screen(sh.page, n)).not.toContain('\ufffd');
  });
});
