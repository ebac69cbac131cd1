// Which agents without an account `agent ls` and finger list: while something of
// theirs runs, and for ONE_OFF_LINGER_MS after the last of it exited; not forever.
import { describe, expect, it } from 'vitest';
import { ONE_OFF_LINGER_MS, oneOffListed } from './service';

const now = 1_000_000_000;
const running = { state: 'working' as const, since: now - 10 * ONE_OFF_LINGER_MS };
const exitedLately = { state: 'exited' as const, since: now - ONE_OFF_LINGER_MS + 1 };
const exitedLongAgo = { state: 'exited' as const, since: now - ONE_OFF_LINGER_MS };

describe('a one-off agent in the list', () => {
  it.each([
    ['a running pane', [], [running], true],
    ['a live hook session and no pane', [running], [], true],
    ['a pane whose program exited a moment ago', [], [exitedLately], true],
    ['a pane whose program exited ONE_OFF_LINGER_MS ago', [], [exitedLongAgo], false],
    ['a hook session ended long ago (SessionEnd) and no pane', [exitedLongAgo], [], false],
    ['one pane long exited beside one running', [], [exitedLongAgo, running], true],
    ['nothing at all', [], [], false],
  ] as const)('with %s: listed %s', (_what, sessions, panes, listed) => {
    expect(oneOffListed(sessions, panes, now)).toBe(listed);
  });
});
