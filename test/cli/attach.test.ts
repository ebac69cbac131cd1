// `pane attach` as a person runs it: the built CLI in a real terminal (a PTY), its
// screen read back with xterm's parser, keys typed into it. The pane's screen is
// drawn from cells (an agent's escape sequences stay out of the person's terminal),
// keys reach the pane, the detach key leaves it running, its program's end ends the
// attach saying how, and a terminal smaller than the pane shows the cursor's part
// or, with --fit, resizes the pane; the wheel and Shift+PgUp scroll back into its history.
import { describe, expect, it } from 'vitest';
import { attachIn, shows, type Attached } from './attachHarness';
import { bashSession, cleanEnv, okWith, serve, servePerFile, until } from './harness';

const srv = servePerFile();

const ok = okWith(srv);
const shell = (name: string): string => bashSession(srv, name);

/** `pane attach ARGS` against this file's server, in a cols×rows terminal. */
function attach(args: string[], cols = 100, rows = 30, env: Record<string, string> = {}, socketFlag = true): Attached {
  return attachIn([...(socketFlag ? ['--socket', srv.socket] : []), 'attach', ...args], cleanEnv(env), cols, rows);
}

describe('pane attach', () => {
  it('draws the pane with a status row, types into it, and detaches leaving it running', async () => {
    const n = shell('att1');
    ok('send', '-t', n, "printf '\\033[1;31mred-%s\\033[0m\\n' $((40+2))");
    // A terminal larger than the pane (a headless daemon's panes are 160×47): all of it shown.
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the status row', new RegExp(`^ pane ${n} · ~ · 160×47 · Ctrl\\+\\\\ detaches`, 'm'));
    await shows(a, 'the red line', /^red-42$/m);
    // Drawn from cells: bold red, as SGR the attach wrote itself.
    expect(a.raw()).toContain('\x1b[0;1;31mred-42');
    const b = a.term.buffer.active;
    const row = [...Array(a.term.rows).keys()].find((y) => b.getLine(b.viewportY + y)?.translateToString(true) === 'red-42')!;
    const cell = b.getLine(b.viewportY + row)!.getCell(0)!;
    expect({ bold: cell.isBold() !== 0, fg: cell.getFgColor() }).toEqual({ bold: true, fg: 1 });
    // Keys reach the pane's shell, and its echo comes back here.
    a.type('echo typed-$((6*7))\r');
    await shows(a, 'the typed line run', /^typed-42$/m);
    expect(ok('output', '-t', n)).toContain('typed-42');
    // Ctrl+\ detaches: the attach ends well, the person's screen comes back, the pane runs on.
    a.type('\x1c');
    expect(await a.exit).toBe(0);
    expect(a.raw()).toContain(`pane: detached from pane ${n}; it runs on (pane attach -t ${n} comes back)`);
    expect(a.raw()).toContain('\x1b[?1049l');
    expect(JSON.parse(ok('ls', '--json')).find((p: { n: number }) => String(p.n) === n).state).toBe('running');
  });

  it('keeps the program’s escape sequences out of the person’s terminal: no OSC, DCS or query reaches it', async () => {
    const n = shell('att2');
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the prompt', /[$#] $/m);
    // Clipboard (OSC 52), a title, a hyperlink, a DCS query, a title report (CSI 21 t), and a bidi override in text.
    a.type(
      "printf '\\033]52;c;cHduZWQ=\\007\\033]0;evil-title\\007\\033]8;;http://x/\\033\\\\link\\033]8;;\\033\\\\ \\033P+q544e\\033\\\\\\033[21t\\342\\200\\256txt.exe end-%s\\n' $((5*5))\r",
    );
    await shows(a, 'the line printed', /end-25$/m);
    const raw = a.raw();
    expect(raw).not.toContain('\x1b]');
    expect(raw).not.toContain('\x1bP');
    expect(raw).not.toContain('\x1b[21t');
    expect(raw).not.toContain('\u202e');
    expect(a.screen()).toMatch(/^link +txt\.exe end-25$/m);
    // A character cut between two frames, 0.3 s apart, is drawn whole (the UTF-8 carry, decision 054).
    a.type("printf 'A\\342\\200'; sleep 0.3; printf '\\224B-%s\\n' $((2+2))\r");
    await shows(a, 'the dash whole', /^A—B-4$/m);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
  });

  it('ends when the pane’s program does, saying how, with the person’s screen back', async () => {
    const n = shell('att3');
    const a = attach(['-t', n, '--detach-key', '^Q']);
    await shows(a, 'the status row naming ^Q', /Ctrl\+Q detaches/);
    a.type('exit 3\r');
    expect(await a.exit).toBe(0);
    expect(a.raw()).toMatch(/pane: \[bash exited 3 at [0-9:]+\]/);
  });

  it('shows the cursor’s part of a pane larger than the terminal, and --fit sizes the pane to it', async () => {
    const n = shell('att4');
    ok('send', '-t', n, 'seq 1 200');
    // 60 columns: the status row has room to say so whatever the pane's number and name (at 40, " pane 12 · seq · 160×47 (40×7 of it sh…" was cut before it).
    const small = attach(['-t', n], 60, 8);
    await shows(small, 'the status row saying only part is shown', /of it shown/);
    // The part with the cursor: the prompt after 200, at the bottom.
    await shows(small, 'the last line and prompt', /^200\n.*[$#] $/m);
    small.type('\x1c');
    expect(await small.exit).toBe(0);
    const fitted = attach(['-t', n, '--fit'], 40, 8);
    await until('the pane to be 40×7', () => {
      const p = JSON.parse(ok('ls', '--json')).find((x: { n: number }) => String(x.n) === n);
      return p.cols === 40 && p.rows === 7;
    });
    await shows(fitted, 'the status row with the new size and no cut', /· 40×7 · Ctrl/);
    fitted.type('\x1c');
    expect(await fitted.exit).toBe(0);
    // Left, the pane has its size back.
    await until('the pane to be 160×47 again', () => {
      const p = JSON.parse(ok('ls', '--json')).find((x: { n: number }) => String(x.n) === n);
      return p.cols === 160 && p.rows === 47;
    });
  });

  it('as a read-only grant’s guest, shows the pane, says read-only and sends no key; a read-write guest types', async () => {
    const n = shell('att7');
    const token = (kind: string[]): string => /^token: (\S+)$/m.exec(ok('grant', 'new', '--session', 'att7', ...kind))![1]!;
    const ro = attach(['-t', n], 180, 52, { PANE_GRANT: token([]) });
    await shows(ro, 'the status row saying read-only', /· read-only · Ctrl\+\\ detaches/);
    ro.type('echo guest-$((3*11))\r');
    await new Promise((r) => setTimeout(r, 800));
    expect(ok('output', '-t', n)).not.toContain('guest');
    ro.type('\x1c');
    expect(await ro.exit).toBe(0);
    const rw = attach(['-t', n], 180, 52, { PANE_GRANT: token(['--rw']) });
    await shows(rw, 'the status row', /· 160×47 · Ctrl/);
    rw.type('echo guest-$((3*11))\r');
    await shows(rw, 'the guest’s line run', /^guest-33$/m);
    rw.type('\x1c');
    expect(await rw.exit).toBe(0);
  });

  it('hands a click to a program that asked for the mouse, in the form it asked for; none when it did not ask', async () => {
    // SGR reports (1006): the person's terminal is asked for the mouse, and a click at column 5, row 3 reaches cat as it was typed.
    const sgr = ok('new', '--session', 'att8', '--', 'sh', '-c', "stty raw -echo; printf '\\033[?1000h\\033[?1006hready\\r\\n'; exec cat -v").trim();
    const a = attach(['-t', sgr], 180, 52);
    await shows(a, 'the program ready', /^ready$/m);
    await until('the mouse asked of the terminal', () => a.raw().includes('\x1b[?1000h\x1b[?1006h'));
    a.type('\x1b[<0;5;3M\x1b[<0;5;3m');
    await shows(a, 'the click and release in SGR form', /\^\[\[<0;5;3M\^\[\[<0;5;3m/);
    // A click on the status row is not the pane's.
    a.type('\x1b[<0;5;52Mz');
    await shows(a, 'the z typed after it', /3mz$/m);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
    expect(a.raw()).toContain('\x1b[?1000l');
    // X10 reports (1000 alone): the same click is encoded as the program asked, ESC [ M and three bytes.
    const x10 = ok('new', '--session', 'att9', '--', 'sh', '-c', "stty raw -echo; printf '\\033[?1000hready\\r\\n'; exec cat -v").trim();
    const b = attach(['-t', x10], 180, 52);
    await shows(b, 'the program ready', /^ready$/m);
    b.type('\x1b[<0;5;3M');
    await shows(b, 'the click in X10 form', /\^\[\[M %#/);
    b.type('\x1c');
    expect(await b.exit).toBe(0);
    // A shell that asked for nothing: the terminal is asked for presses and drags (the wheel scrolls back here, a drag selects), and a click is nobody's.
    const plain = shell('att10');
    const c = attach(['-t', plain], 180, 52);
    await shows(c, 'the prompt', /[$#] $/m);
    await until('presses and drags asked of the terminal', () => c.raw().includes('\x1b[?1002h\x1b[?1006h'));
    expect(c.raw()).not.toMatch(/\x1b\[\?100[03]h/);
    c.type('\x1b[<0;5;3M\x1b[<0;5;3mecho after-click\r');
    await shows(c, 'the line typed after the click, with nothing before it', /^after-click$/m);
    expect(ok('output', '-t', plain)).not.toContain('[<');
    c.type('\x1c');
    expect(await c.exit).toBe(0);
    // --no-mouse-scroll: not asked at all, so the terminal's own selection works without Shift.
    const left = attach(['-t', plain, '--no-mouse-scroll'], 180, 52);
    await shows(left, 'the prompt', /[$#] $/m);
    expect(left.raw()).not.toMatch(/\x1b\[\?100[023]h/);
    left.type('\x1c');
    expect(await left.exit).toBe(0);
  });

  it('scrolls back into the pane’s history with the wheel and Shift+PgUp, holds there while output comes, and returns on q or typing', async () => {
    const n = shell('att11');
    ok('send', '-t', n, 'seq 1 300');
    await until('seq to finish', () => /^300$/m.test(ok('screen', '-t', n)));
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the last line and the prompt', /^300\n.*[$#] $/m);
    const rows = (): string[] => a.screen().split('\n');
    /** The first row of the pane as drawn, as a number of seq's. */
    const top = (): number => Number(rows()[0]);
    const live = top();
    expect(live).toBeGreaterThan(250);
    // Shift+PgUp: a page back (the pane's 47 rows, less one kept in view).
    a.type('\x1b[5;2~');
    await shows(a, 'a page back', /· 46 of \d+ rows back ·/);
    expect(top()).toBe(live - 46);
    // The wheel, a notch up: three rows more.
    a.type('\x1b[<64;20;10M');
    await shows(a, 'three rows more', /· 49 of \d+ rows back ·/);
    expect(top()).toBe(live - 49);
    // Output that comes meanwhile leaves the view where it is.
    ok('send', '-t', n, 'seq 1001 1005');
    await until('the pane to print 1005', () => /^1005$/m.test(ok('screen', '-t', n)));
    await new Promise((r) => setTimeout(r, 300));
    expect(top()).toBe(live - 49);
    expect(a.screen()).not.toMatch(/^1005$/m);
    // g: the top of the history, which reaches back to before seq ran (the snapshot brought it).
    a.type('g');
    await shows(a, 'the top of the history', /· (\d+) of \1 rows back ·/);
    expect(a.screen()).toMatch(/seq 1 300$/m);
    expect(a.screen()).toMatch(/^1$/m);
    // q: the live screen, with what was printed meanwhile.
    a.type('q');
    await shows(a, 'the live screen', /^1005\n.*[$#] $/m);
    expect(a.screen()).toMatch(/ · 160×47 · Ctrl\+\\ detaches/);
    // Typing while scrolled back returns to the live screen and reaches the shell; the q above did not.
    const mark = a.raw().length;
    a.type('\x1b[<64;20;10M');
    await shows(a, 'scrolled back again', /· 3 of \d+ rows back ·/);
    // The cursor, now three rows below the pane's last row, is not drawn there (those are the terminal's spare rows).
    expect(a.raw().slice(mark)).not.toContain('\x1b[?25h');
    a.type('echo back-$((2*21))\r');
    await shows(a, 'the typed line run, live', /^back-42\n.*[$#] $/m);
    expect(ok('output', '-t', n)).not.toMatch(/[$#] q/);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
    // --history 0: the screen alone, nothing behind it to scroll to.
    const bare = attach(['-t', n, '--history', '0'], 180, 52);
    await shows(bare, 'the live screen', /^back-42\n.*[$#] $/m);
    bare.type('\x1b[5;2~');
    await new Promise((r) => setTimeout(r, 300));
    expect(bare.screen()).not.toMatch(/rows back/);
    bare.type('\x1c');
    expect(await bare.exit).toBe(0);
  });

  it('searches the history while scrolled back: ? up, / down, n and N again, the match in reverse video, nothing typed into the program', async () => {
    const n = shell('att13');
    ok('send', '-t', n, "printf 'alpha-%s\\n' 1 2 3; seq 1 100; echo 'Beta line'; seq 101 150");
    await until('the output to finish', () => /^150$/m.test(ok('screen', '-t', n)));
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the last line and the prompt', /^150\n.*[$#] $/m);
    /** Whether the row showing `text` starts in reverse video (the match's mark). */
    const marked = (text: string): boolean => {
      const b = a.term.buffer.active;
      for (let y = 0; y < a.term.rows; y++) {
        const line = b.getLine(b.viewportY + y)!;
        const at = line.translateToString(true).indexOf(text);
        if (at !== -1) return line.getCell(at)!.isInverse() !== 0;
      }
      return false;
    };
    a.type('\x1b[5;2~');
    await shows(a, 'paging', /rows back · .*\? \/ n N search/);
    a.type('?');
    await shows(a, 'the search prompt', /· search up: ▏ · Enter finds/);
    a.type('alpha');
    await shows(a, 'the text typed', /· search up: alpha▏ ·/);
    a.type('\r');
    await until('alpha-3 shown and marked', () => marked('alpha-3'));
    expect(marked('alpha-2')).toBe(false);
    // n: again the same way (up); N: the other way.
    a.type('n');
    await until('alpha-2 marked', () => marked('alpha-2') && !marked('alpha-3'));
    a.type('N');
    await until('alpha-3 marked again', () => marked('alpha-3') && !marked('alpha-2'));
    // Down, in lowercase (smartcase): the Beta line.
    a.type('/beta\r');
    await until('the Beta line marked', () => marked('Beta line'));
    // Nothing that way: said on the status row, and the view stays.
    a.type('/zzz\r');
    await shows(a, 'the note', /“zzz” not found below/);
    expect(marked('Beta line')).toBe(true);
    // Esc leaves a search being typed; q the history; neither reached the shell.
    a.type('?qq\x1b');
    await shows(a, 'paging again, no prompt', /rows back · /);
    a.type('q');
    await shows(a, 'the live screen', / · 160×47 · Ctrl\+\\ detaches/);
    expect(marked('150')).toBe(false);
    a.type('echo done-$((1+1))\r');
    await shows(a, 'the typed line run', /^done-2$/m);
    // Text that runs over a wrapped row's end (160 columns): found (down, from the view's top, a page back), and marked on both rows.
    ok('send', '-t', n, "printf '%0150d/wrapped/path.ts\\n' 0");
    await shows(a, 'the long line', /^0+\/wrapped\/p$/m);
    a.type('\x1b[5;2~/0/wrapped/path.ts\r');
    const inverseAt = (rowEnd: string, offset: number, x: number): boolean => {
      const b0 = a.term.buffer.active;
      const y = a.screen().split('\n').findIndex((l) => l.endsWith(rowEnd));
      return y !== -1 && b0.getLine(b0.viewportY + y + offset)!.getCell(x)!.isInverse() !== 0;
    };
    await until('both parts marked', () => inverseAt('/wrapped/p', 0, 149) && inverseAt('/wrapped/p', 1, 5));
    expect([inverseAt('/wrapped/p', 0, 148), inverseAt('/wrapped/p', 1, 6)]).toEqual([false, false]);
    a.type('q');
    await shows(a, 'live', / · 160×47 · Ctrl\+\\ detaches/);
    // Scrolled back when a program takes the alternate screen: live again, for there is no history there.
    a.type('\x1b[5;2~');
    await shows(a, 'paging', /rows back/);
    ok('send', '-t', n, "printf '\\033[?1049hfull-screen'; sleep 2; printf '\\033[?1049l'");
    await shows(a, 'the program’s screen, live', /^full-screen$/m);
    expect(a.screen()).not.toMatch(/rows back/);
    expect(ok('output', '-t', n)).not.toMatch(/alpha\r|zzz|qq/);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
  });

  it('selects with a drag (a word with a double click, a row with a triple) where the program does not take the mouse, and copies the text to the person’s clipboard (OSC 52)', async () => {
    const n = shell('att15');
    ok('send', '-t', n, "printf 'one two three   \\nfour five six\\n'");
    await until('the lines printed', () => /^four five six$/m.test(ok('screen', '-t', n)));
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the lines', /^one two three {3}\nfour five six$/m);
    const y = a.screen().split('\n').findIndex((l) => l.startsWith('one two')) + 1;
    // Pressed on "two", dragged to the end of "five" a row down, released.
    a.type(`\x1b[<0;5;${y}M\x1b[<32;7;${y}M\x1b[<32;9;${y + 1}M\x1b[<0;9;${y + 1}m`);
    await shows(a, 'the copy said', /copied 19 characters to the clipboard \(OSC 52\)/);
    const osc = /\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/.exec(a.raw());
    expect(Buffer.from(osc![1]!, 'base64').toString('utf8')).toBe('two three\nfour five');
    // The selected cells are drawn in reverse video, the rest of the rows not.
    const row = (yy: number) => a.term.buffer.active.getLine(a.term.buffer.active.viewportY + yy)!;
    const inverse = (yy: number, x: number) => row(yy).getCell(x)!.isInverse() !== 0;
    expect([inverse(y - 1, 4), inverse(y - 1, 3), inverse(y, 8), inverse(y, 9)]).toEqual([true, false, true, false]);
    // A key lets the selection go (and reaches the shell); a click alone copies nothing.
    const before = a.raw().match(/\x1b\]52;/g)!.length;
    a.type('echo next\r');
    await shows(a, 'the line run', /^next$/m);
    await until('the selection gone', () => !inverse(y - 1, 4));
    a.type(`\x1b[<0;5;${y}M\x1b[<0;5;${y}m`);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.raw().match(/\x1b\]52;/g)!.length).toBe(before);
    // A double click copies the word under it, a third click its row.
    const lastCopy = () => Buffer.from([...a.raw().matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].pop()![1]!, 'base64').toString('utf8');
    const click = `\x1b[<0;11;${y}M\x1b[<0;11;${y}m`;
    a.type(click + click);
    await until('the word copied', () => lastCopy() === 'three');
    a.type(click);
    await until('the row copied', () => lastCopy() === 'one two three');
    a.type('\x1c');
    expect(await a.exit).toBe(0);
  });

  it('makes the wheel the arrow keys over a screen with no history, in the form the program asked for', async () => {
    const n = ok('new', '--session', 'att12', '--', 'sh', '-c', "stty raw -echo; printf '\\033[?1049h\\033[?1hready\\r\\n'; exec cat -v").trim();
    const a = attach(['-t', n], 180, 52);
    await shows(a, 'the program ready', /^ready$/m);
    a.type('\x1b[<64;5;3M\x1b[<65;5;3M');
    await shows(a, 'three ups and three downs, as application cursor keys', /^(\^\[OA){3}(\^\[OB){3}$/m);
    // Shift+PgUp there is the program's key.
    a.type('\x1b[5;2~');
    await shows(a, 'Shift+PgUp reaching the program', /\^\[\[5;2~$/m);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
  });

  it('ends, saying so and with the person’s screen back, when the daemon goes away under it', async () => {
    const own = await serve();
    try {
      const n = bashSession(own, 'gone');
      const a = attachIn(['--socket', own.socket, 'attach', '-t', n], cleanEnv(), 120, 30);
      await shows(a, 'the prompt', /[$#] $/m);
      await own.stop();
      expect(await a.exit).toBe(1);
      expect(a.raw()).toMatch(/\x1b\[\?1049lpane: the pane server closed the connection: it was stopped, or it ended\r\n$/);
    } finally {
      await own.stop();
    }
  });

  it('refuses a stdin that is not a terminal, a bad detach key, and its own pane, naming the problem', () => {
    const n = shell('att5');
    const piped = srv.pane(['attach', '-t', n]);
    expect(piped.status).toBe(2);
    expect(piped.stderr).toContain('its stdin and stdout are not one');
    const bad = srv.pane(['attach', '-t', n, '--detach-key', 'q']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("not 'q'");
  });

  it('takes a session’s name for -t, as tmux attach does: its focused pane; a name that is neither is refused with the sessions there are', async () => {
    const n = shell('att14');
    const a = attach(['-t', 'att14'], 180, 52);
    await shows(a, 'the session’s focused pane', new RegExp(`^ pane ${n} in att14 · `, 'm'));
    a.type('\x1c');
    expect(await a.exit).toBe(0);
    const bad = attach(['-t', 'no-such-session'], 180, 52);
    expect(await bad.exit).toBe(2);
    expect(bad.raw()).toMatch(/-t 'no-such-session' is neither a pane id \(N or HOST:N\) nor a session: its sessions are [^\n]*att14/);
  });

  it('attached by a session’s name, follows its focus: a split, a focus move and a closed pane are shown there, keys going to the pane shown', async () => {
    const n = shell('att15');
    const a = attach(['-t', 'att15'], 180, 52);
    const showing = (p: string) => new RegExp(`^ pane ${p} in att15 · `, 'm');
    await shows(a, 'the session’s focused pane, named with its session', showing(n));
    // A split focuses its new pane, wherever it was asked (another terminal, the window, the pane itself): shown here.
    const m = ok('split', '-t', n, '--', 'sh', '-c', 'echo in-the-split; exec cat').trim();
    await shows(a, 'the new pane', showing(m));
    await shows(a, 'its output', /^in-the-split$/m);
    a.type('typed-into-split\r');
    await until('the keys in the split', () => ok('output', '-t', m).includes('typed-into-split'));
    expect(ok('output', '-t', n)).not.toContain('typed-into-split');
    // Focus back: the first pane again, with its own screen and none of the split's.
    ok('focus', '-t', n);
    await shows(a, 'the first pane again', showing(n));
    await shows(a, 'its prompt, and no line of the split', /^(?![\s\S]*in-the-split)[\s\S]*[$#] $/m);
    // The pane shown is closed: the session's next focus is shown, and the attach goes on.
    ok('focus', '-t', m);
    await shows(a, 'the split once more', showing(m));
    ok('close', '-t', m);
    await shows(a, 'the first pane after the close', showing(n));
    a.type('echo still-$((3*3))\r');
    await shows(a, 'a line typed after the close', /^still-9$/m);
    a.type('\x1c');
    expect(await a.exit).toBe(0);
    expect(a.raw()).toContain(`detached from session att15 (pane ${n}); it runs on (pane attach -t att15 comes back)`);
  });

  it('attached by pane id, stays on that pane when its session’s focus moves; a followed session that ends ends the attach, saying so', async () => {
    const n = shell('att16');
    const pinned = attach(['-t', n], 180, 52);
    await shows(pinned, 'the pane, with no session named', new RegExp(`^ pane ${n} · `, 'm'));
    const m = ok('split', '-t', n, '--', 'sh', '-c', 'echo other-pane; exec cat').trim();
    await until('the split focused', () => JSON.parse(ok('session', 'save', 'att16')).sessions[0].focused === Number(m));
    ok('send', '-t', n, 'echo here-$((4*4))');
    await shows(pinned, 'the pinned pane, still', /^here-16$/m);
    expect(pinned.screen()).toMatch(new RegExp(`^ pane ${n} · `, 'm'));
    pinned.type('\x1c');
    expect(await pinned.exit).toBe(0);
    const follower = attach(['-t', 'att16'], 180, 52);
    await shows(follower, 'the focused split', new RegExp(`^ pane ${m} in att16 · `, 'm'));
    ok('session', 'kill', 'att16');
    expect(await follower.exit).toBe(1);
    expect(follower.raw()).toMatch(/pane: (session att16 was closed|pane \d+ was closed, and so was its session)/);
  });

  it('refuses to show the pane it runs in', async () => {
    const n = shell('att6');
    const a = attach([], 80, 10, { PANE_ID: n, PANE_SOCKET: srv.socket }, false);
    expect(await a.exit).toBe(2);
    expect(a.raw()).toContain(`this terminal is pane ${n}: attached to itself`);
  });
});
