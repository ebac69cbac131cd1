import { describe, expect, it } from 'vitest';
import { MOUNT_REFUSALS_PER_MINUTE, refusalLog } from './refusals';

describe('refusalLog', () => {
  it('writes a refused write with the server’s message on one line, and leaves out paths probed and not there', () => {
    const lines: string[] = [];
    const log = refusalLog((l) => lines.push(l), () => 0);
    log.refused('write', '/3/ctl', { code: 'bad-request', message: 'unknown word "frobnicate"\nthe words of pane 3: close zoom' });
    log.refused('stat', '/999', { code: 'pane-not-found', message: 'no pane 999' });
    log.refused('list', '/x', { code: 'not-found', message: 'no /x' });
    log.refused('open-read', '/3/input', { code: 'denied', message: 'input is write-only' });
    log.refused('open', '/3/commands', { code: 'denied', message: 'commands is read-only' });
    expect(lines).toEqual(['1970-01-01T00:00:00.000Z write "/3/ctl" refused: unknown word "frobnicate" the words of pane 3: close zoom', '1970-01-01T00:00:00.000Z open "/3/commands" refused: commands is read-only']);
  });

  it('writes at most MOUNT_REFUSALS_PER_MINUTE a minute, then counts the rest once the minute is over', () => {
    const lines: string[] = [];
    let t = 0;
    const log = refusalLog((l) => lines.push(l), () => t);
    for (let i = 0; i < MOUNT_REFUSALS_PER_MINUTE + 25; i++) log.refused('write', '/1/ctl', { code: 'failed', message: 'no' });
    expect(lines).toHaveLength(MOUNT_REFUSALS_PER_MINUTE);
    t = 60_000;
    log.refused('open', '/1/input', { code: 'denied', message: 'read-only' });
    expect(lines.slice(-2)).toEqual([`1970-01-01T00:01:00.000Z 25 more refusals not logged in the last minute (MOUNT_REFUSALS_PER_MINUTE, ${MOUNT_REFUSALS_PER_MINUTE})`, '1970-01-01T00:01:00.000Z open "/1/input" refused: read-only']);
  });
});
