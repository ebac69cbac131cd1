// `pane screen --rows N [--top ROW | --offset K]` (issue 36.4): a window of a pane's rows
// as plain text, as a viewer on a slow link reads it — the last N, N from the oldest
// row, or N scrolled back K rows from the newest — through the real CLI and daemon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, serve, type Served } from './harness';

let s: Served;

describe('pane screen --rows', () => {
  beforeAll(async () => {
    buildOnce();
    s = await serve();
    expect(s.pane(['send', '-t', '1', 'clear; seq -f "row-%03g" 1 120; echo END-OF-ROWS']).status).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!s.pane(['screen', '-t', '1']).stdout.includes('END-OF-ROWS\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  const rowsOf = (args: string[]) => {
    const r = s.pane(['screen', '-t', '1', ...args]);
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.trimEnd().split('\n');
  };

  it('gives the last N rows, N from --top, or N ending K rows back with --offset', () => {
    const last = rowsOf(['--rows', '3']);
    expect(last).toHaveLength(3);
    expect(last[1]).toBe('END-OF-ROWS');
    const all = rowsOf(['--rows', '1000']);
    const i = all.indexOf('row-050');
    expect(rowsOf(['--rows', '2', '--top', String(i)])).toEqual(['row-050', 'row-051']);
    // Ten rows back from the newest: the window ends ten rows above it.
    const back = rowsOf(['--rows', '2', '--offset', '10']);
    expect(back).toEqual(all.slice(all.length - 12, all.length - 10));
  });

  it('names what is wrong with the flags', () => {
    for (const [args, why] of [
      [['--offset', '3'], /--offset needs --rows/],
      [['--rows', '2', '--top', '1', '--offset', '1'], /give one/],
      [['--rows', '2', '--ansi'], /--rows gives plain text/],
    ] as const) {
      const r = s.pane(['screen', '-t', '1', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(why);
    }
  });
});
