// pane cat / ls PATH / write / tail end to end: the built CLI (dist/pane.mjs)
// against a real `pane serve` on a temp socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, collect, serve, until, type Served } from '../cli/harness';

let s: Served;
let shell: number;

beforeAll(async () => {
  buildOnce();
  s = await serve();
  shell = Number(s.pane(['cat', '/index']).stdout.split(' ')[0]);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

describe('pane cat, ls, write, tail', () => {
  it('ls PATH lists a namespace directory; plain ls still lists panes', () => {
    const root = s.pane(['ls', '/']);
    expect(root.status).toBe(0);
    expect(root.stdout.split('\n')).toEqual(expect.arrayContaining(['index', 'log', 'new/', 'server/', 'by-sig/', `${shell}/`]));
    const long = s.pane(['ls', '-l', `/${shell}`]).stdout;
    expect(long).toMatch(/^--w--w--w- +0 input$/m);
    expect(long).toMatch(/^-r--r--r-- +0 commands$/m);
    expect(s.pane(['ls']).stdout).toMatch(/^ID +SESSION/);
  });

  it('ls refuses a bare word as a path (exit 2) and names the fix', () => {
    const r = s.pane(['ls', 'index']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('paths start with /');
  });

  it('cat prints files, several in a row', () => {
    const r = s.pane(['cat', '/server/version', `/${shell}/ctl`]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^pane \\S+ protocol \\d+ host \\S+\\n${shell} main com\\.pane\\.terminal `));
  });

  it('write sends TEXT with a newline, and ctl commands take effect', () => {
    expect(s.pane(['write', `/${shell}/ctl`, 'name', 'cli-named']).status).toBe(0);
    expect(s.pane(['cat', `/${shell}/tag`]).stdout).toMatch(/^cli-named /);
  });

  it('write - sends stdin exactly (input reaches the shell)', async () => {
    expect(s.pane(['write', `/${shell}/input`, '-'], { input: 'echo piped-""in\n' }).status).toBe(0);
    await until('the echo in the body', () => s.pane(['cat', `/${shell}/body`]).stdout.includes('piped-in\n') || undefined);
  });

  it('a bad ctl command is a usage error naming the line; a gone pane is exit 1 naming it', () => {
    const bad = s.pane(['write', `/${shell}/ctl`, 'frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
    const gone = s.pane(['cat', '/999/body']);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain('pane 999 not found');
  });

  it('write /new/ctl launches a program and prints its ctl line, id first', () => {
    const r = s.pane(['write', '/new/ctl', '/bin/sleep', '30']);
    expect(r.status).toBe(0);
    const id = Number(r.stdout.split(' ')[0]);
    expect(id).toBeGreaterThan(shell);
    expect(s.pane(['cat', `/${id}/ctl`]).stdout).toBe(r.stdout);
    s.pane(['write', `/${id}/ctl`, 'close']);
  });

  it('cat of a 10,000-line scrollback prints every line', async () => {
    const id = Number(s.pane(['write', '/new/ctl', '/usr/bin/seq', '1', '10000']).stdout.split(' ')[0]);
    await until('seq to exit', () => s.pane(['cat', `/${id}/ctl`]).stdout.includes(' exited(0) ') || undefined);
    const lines = s.pane(['cat', `/${id}/body`]).stdout.trimEnd().split('\n');
    expect(lines.slice(-4, -1)).toEqual(['9998', '9999', '10000']);
    expect(lines.at(-1)).toMatch(/^\[seq exited 0 at /);
    expect(lines.length).toBeGreaterThanOrEqual(10_000);
    s.pane(['write', `/${id}/ctl`, 'close']);
  });

  it('tail prints the last lines of the log, then follows it', async () => {
    const t = collect(s.spawnPane(['tail', '-n', '1', '/log']));
    await until('tail to print the last line', () => t.out().length > 0 || undefined);
    s.pane(['write', `/${shell}/ctl`, 'name', 'tailed']);
    await until('the followed line', () => t.out().includes(`${shell} exec ctl `) || undefined);
    expect(t.out().trimEnd().split('\n')[0]).not.toContain('tailed');
    expect(t.out()).toContain(`${shell} tag tailed `);
  });

  it('tail of an event file ends when the pane closes', async () => {
    const id = Number(s.pane(['write', '/new/ctl', '/bin/sleep', '30']).stdout.split(' ')[0]);
    const t = collect(s.spawnPane(['tail', `/${id}/event`]));
    await until('tail to start', () => t.out().includes(' created ') || undefined);
    s.pane(['write', `/${id}/ctl`, 'close']);
    expect(await t.exit).toBe(0);
    expect(t.out()).toMatch(/ closed - -\n$/);
  });
});
