// `pane wait`: block until a pane is idle (the line `pane send` typed has finished),
// its program exits, it goes quiet, its agent needs the person or finishes, or it
// prints a line matching a pattern. The first four are the server's pane/wait; the
// pattern is matched here, on the output this command reads (pty/read by offset,
// prompted by output events), so no caller's regular expression ever runs in the
// daemon. Exit status: 0 when met (`--exit`: the program's own), 124 at --timeout
// (as timeout(1)), 1 when the pane is closed or its program ends first.
import type { Connection } from '../../../client/index';
import { AGENT_STATES, MAX_WAIT_MS, seconds, type AgentState } from '../../../protocol/agentState';
import { exitLabel, shellStatus } from '../../../protocol/exitLabel';
import type { PaneRef } from '../../../protocol/ids';
import { clip, shownKeepingTabs } from '../../../protocol/shown';
import { bool, int, str } from '../args';
import { JSON_FLAG, TARGET, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { EXIT, UsageError } from '../errors';
import { matchOutput } from '../matchOutput';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `500ms`, `5s`, `2.5m`, `1h`, `1d` (a bare number: seconds) as milliseconds, at most MAX_WAIT_MS; a UsageError names the flag. */
export function waitDuration(text: string, flag: string): number {
  const m = /^([0-9]{1,9}(?:\.[0-9]{1,3})?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new UsageError(`--${flag}: ${JSON.stringify(clip(text, 40))} is not a duration (500ms, 5s, 2m, 1h, 1d)`, 'wait');
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 's']!);
  if (ms > MAX_WAIT_MS) throw new UsageError(`--${flag}: ${text} is longer than a day (MAX_WAIT_MS)`, 'wait');
  return ms;
}

export const waitCommand: CommandSpec = {
  command: 'wait',
  summary: 'wait until a pane is idle (the line you sent has finished), its program exits, it goes quiet, its agent needs you or is done, or it prints a match',
  flags: [
    TARGET,
    { name: 'idle', type: 'bool', doc: 'until nothing but its shell runs and it has printed nothing for a moment: the line `pane send` typed has finished (the default)' },
    { name: 'exit', type: 'bool', doc: "until its program ends; exits with the program's status (128+N for signal N)" },
    { name: 'quiet', type: 'string', value: 'DURATION', doc: 'until it prints nothing for DURATION (500ms, 5s, 2m), as tmux’s monitor-silence' },
    { name: 'agent', type: 'bool', doc: 'until its agent needs you, is done, ready or idle (anything but working)' },
    { name: 'state', type: 'string', value: 'STATES', doc: `with --agent: the states that end the wait, comma-separated (${AGENT_STATES.join(', ')})` },
    { name: 'match', type: 'string', value: 'REGEX', doc: 'until a line it prints (escape sequences taken out) matches REGEX (a JavaScript regular expression); prints the line' },
    { name: 'from', type: 'int', value: 'OFFSET', min: 0, doc: 'with --match: look from this stream offset (default: what it prints from now on)' },
    { name: 'since-input', type: 'bool', doc: 'with --match: look at what it printed after the last key you sent it (the line that key was typed on left out), however soon it printed it; keys others typed there meanwhile move nothing', conflicts: ['from'] },
    { name: 'timeout', short: 'T', type: 'string', value: 'DURATION', doc: 'give up after DURATION: exit 124, saying what was still going (default: a day)' },
    JSON_FLAG,
  ],
  notes: [
    'Prints what it saw: "at its prompt: nothing but its shell runs", "exited 2", "quiet for 5 s", "needs you", or the matching line.',
    'Exit status: 0 when met (with --exit, the program’s own status), 124 at --timeout, 1 when the pane is closed or (--match, --agent) its program ends first.',
    'A line sent and waited for: pane send -t 3 make && pane wait -t 3 && pane screen -t 3. Output printed before pane wait --match starts is not looked at unless --from or --since-input says so: pane send -t 3 "npm run dev" && pane wait -t 3 --since-input --match "listening on" sees the line however soon it came, and not the command typed (its echo is on the line the Enter was pressed on).',
    'Idle means the foreground of the pane’s terminal is its shell again; a pane that runs a program of its own (not a shell) is idle only when that program ends.',
  ],
  async run(ctx, a) {
    const given = ['idle', 'exit', 'agent'].filter((f) => bool(a, f)).concat(str(a, 'quiet') !== undefined ? ['quiet'] : [], str(a, 'match') !== undefined ? ['match'] : []);
    if (given.length > 1) throw new UsageError(`--${given.join(', --')}: wait for one of them at a time`, 'wait');
    const until = (given[0] ?? 'idle') as 'idle' | 'exit' | 'quiet' | 'agent' | 'match';
    if (str(a, 'state') !== undefined && until !== 'agent') throw new UsageError('--state goes with --agent', 'wait');
    if (int(a, 'from') !== undefined && until !== 'match') throw new UsageError('--from goes with --match', 'wait');
    if (bool(a, 'since-input') && until !== 'match') throw new UsageError('--since-input goes with --match', 'wait');
    const timeoutText = str(a, 'timeout');
    const timeoutMs = timeoutText === undefined ? undefined : waitDuration(timeoutText, 'timeout');
    const pane = ctx.target(a);
    const c = await ctx.connect();
    if (until === 'match') return matchLine(ctx, c, pane, str(a, 'match')!, bool(a, 'since-input') ? 'input' : int(a, 'from'), timeoutMs, bool(a, 'json'));
    const states = str(a, 'state')?.split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const s of states ?? []) if (!(AGENT_STATES as readonly string[]).includes(s)) throw new UsageError(`--state: ${JSON.stringify(clip(s, 40))} is not an agent state (${AGENT_STATES.join(', ')})`, 'wait');
    const quietMs = until === 'quiet' ? waitDuration(str(a, 'quiet')!, 'quiet') : undefined;
    if (quietMs !== undefined && quietMs < 100) throw new UsageError('--quiet: at least 100 ms', 'wait');
    const r = await c.call('pane/wait', {
      ...(pane === undefined ? {} : { pane }),
      until,
      ...(quietMs !== undefined ? { quietMs } : {}),
      ...(states !== undefined && states.length > 0 ? { states: states as AgentState[] } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    if (bool(a, 'json')) ctx.out(JSON.stringify(r));
    else if (r.met) ctx.out(shownKeepingTabs(r.what));
    if (!r.met) {
      ctx.err(`pane ${r.pane}: timed out after ${seconds(timeoutMs ?? MAX_WAIT_MS)}: ${shownKeepingTabs(r.what)}`);
      return EXIT.timedOut;
    }
    if (until === 'exit' && r.exit) return shellStatus(r.exit);
    // An agent wait met because the program ended: not what was waited for.
    if (until === 'agent' && r.exit && !(states ?? []).includes('exited')) {
      ctx.err(`pane ${r.pane}: its program ended (${exitLabel(r.exit)}) before its agent reached that state`);
      return EXIT.failed;
    }
    return EXIT.ok;
  },
};

/** `pane wait --match`: the first line matching `pattern` (see matchOutput), printed; the end said on stderr otherwise. */
async function matchLine(ctx: CommandContext, c: Connection, target: PaneRef | undefined, pattern: string, from: number | 'input' | undefined, timeoutMs: number | undefined, json: boolean): Promise<number> {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    throw new UsageError(`--match: ${(e as Error).message}`, 'wait');
  }
  const focused = target === undefined ? (await c.call('session/get', {})).focused : null;
  const ref: PaneRef | null = target ?? focused;
  if (ref === null) throw new UsageError('no pane is focused: say which with -t', 'wait');
  await c.call('events/subscribe', { families: ['output', 'pane'] });
  const r = await matchOutput(c, ref, re, from ?? 'now', timeoutMs ?? MAX_WAIT_MS, (gap) => ctx.err(gap));
  const pat = `/${clip(pattern, 80)}/`;
  switch (r.kind) {
    case 'found':
      ctx.out(json ? JSON.stringify({ pane: r.pane, met: true, line: r.line, offset: r.offset, waitedMs: r.waitedMs }) : shownKeepingTabs(clip(r.line, 2000)));
      return EXIT.ok;
    case 'no-input':
      ctx.err(`you have sent pane ${r.pane} no key since it started: --since-input looks after your own last key (pane send), not another's`);
      return EXIT.failed;
    case 'closed':
      ctx.err(`pane ${r.pane} was closed before it printed a line matching ${pat}`);
      return EXIT.failed;
    case 'ended':
      ctx.err(`pane ${r.pane}: its program ended${r.exit ? ` (${exitLabel(r.exit)})` : ''} before it printed a line matching ${pat}`);
      return EXIT.failed;
    case 'timeout':
      ctx.err(`pane ${r.pane}: timed out after ${seconds(timeoutMs ?? MAX_WAIT_MS)}: no line matching ${pat}`);
      return EXIT.timedOut;
  }
}
