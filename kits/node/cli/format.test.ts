// What the CLI prints, checked without a server: table layout, ids, paths,
// states, and the bytes `pane send` writes.
import { describe, expect, it } from 'vitest';
import type { Pane } from '../../protocol/model';
import { bytesText, infoText, lsTable, paneId, paneState, shortPath, table } from './format';
import { sendBytes } from './commands/streams';

function pane(over: Partial<Pane> = {}): Pane {
  return {
    n: 3,
    uuid: '00000000-0000-4000-8000-000000000003',
    host: 'box',
    session: '00000000-0000-4000-8000-0000000000aa',
    signature: 'com.pane.terminal',
    kind: 'terminal',
    tag: { name: 'bash', commands: ['Close'], user: 'fixing auth' },
    vocabulary: [],
    owner: 'ada',
    cwd: '/home/ada/src',
    launch: null,
    pid: 4242,
    pgid: 4242,
    state: 'running',
    exit: null,
    cols: 80,
    rows: 24,
    attrs: { quadrant: 'top-left' },
    createdAt: 0,
    ...over,
  };
}

describe('table', () => {
  it('pads every column but the last to its widest cell, two spaces apart', () => {
    expect(table(['A', 'BB'], [['xyz', 'free text'], ['q', 'w']])).toBe('A    BB\nxyz  free text\nq    w');
  });
});

describe('lsTable', () => {
  it('shows the nine columns, session by name and local ids as plain N', () => {
    const out = lsTable([pane()], new Map([[pane().session, 'main']]), 'box', '/home/ada');
    const [head, row] = out.split('\n');
    expect(head?.split(/\s+/)).toEqual(['ID', 'SESSION', 'SIGNATURE', 'OWNER', 'QUADRANT', 'STATE', 'PID', 'CWD', 'TAG']);
    expect(row?.split(/\s{2,}/)).toEqual(['3', 'main', 'com.pane.terminal', 'ada', 'top-left', 'running', '4242', '~/src', 'bash fixing auth']);
  });

  it("shortens a joined host's pane's cwd by no home: ours is not that host's", () => {
    const far = pane({ n: 2, host: 'box', cwd: '/home/ada/src' });
    const row = lsTable([far], new Map(), 'laptop', '/home/ada').split('\n')[1]!;
    expect(row.split(/\s{2,}/).slice(0, 1).concat(row.split(/\s{2,}/).slice(7, 8))).toEqual(['box:2', '/home/ada/src']);
  });

  it('marks missing values with - and shows exit status', () => {
    const out = lsTable([pane({ owner: '', attrs: {}, pid: null, state: 'exited', exit: { code: 1, signal: null, at: 0 } })], new Map(), 'box');
    expect(out.split('\n')[1]).toMatch(/^3\s+00000000\s+com\.pane\.terminal\s+-\s+-\s+exited 1\s+-\s+/);
  });
});

describe('lsTable with a stand-in', () => {
  it("shows a stand-in's PID and CWD as its remote pane's, named with their host, and where it points when that pane is not listed", () => {
    const stand = pane({ n: 7, kind: 'remote', signature: 'com.pane.remote', pid: null, cwd: '/home/ada/here', attrs: { 'remote.host': 'box', 'remote.n': '2' } });
    const far = pane({ n: 2, host: 'box', pid: 999, cwd: '/home/bob/there', attrs: {} });
    const rows = lsTable([stand, far], new Map(), 'laptop', '/home/ada').split('\n').slice(1);
    expect(rows[0]?.split(/\s{2,}/).slice(5, 8)).toEqual(['running', 'box:999', 'box:/home/bob/there']);
    // Its remote pane's own row keeps its number as HOST:N.
    expect(rows[1]).toMatch(/^box:2\s/);
    const alone = lsTable([stand], new Map(), 'laptop', '/home/ada').split('\n')[1]!;
    expect(alone.split(/\s{2,}/).slice(5, 8)).toEqual(['running', '-', '→ box:2']);
  });
});

describe('paneId', () => {
  it('is N on its own host and HOST:N elsewhere', () => {
    expect(paneId({ n: 5, host: 'a' }, 'a')).toBe('5');
    expect(paneId({ n: 5, host: 'vm' }, 'a')).toBe('vm:5');
  });
});

describe('shortPath', () => {
  it('abbreviates home and keeps the tail of long paths', () => {
    expect(shortPath('/home/ada', '/home/ada')).toBe('~');
    expect(shortPath('/home/adam/x', '/home/ada')).toBe('/home/adam/x');
    const long = '/srv/' + 'a'.repeat(60) + '/leaf';
    const s = shortPath(long, undefined);
    expect([...s].length).toBe(40);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('/leaf')).toBe(true);
  });
});

describe('paneState', () => {
  it('names the signal of a killed pane', () => {
    expect(paneState({ state: 'exited', exit: { code: null, signal: 9, at: 0, signalName: 'SIGKILL' } })).toBe('killed (SIGKILL)');
    expect(paneState({ state: 'exited', exit: { code: null, signal: 9, at: 0 } })).toBe('killed (signal 9)');
    expect(paneState({ state: 'exited', exit: { code: 0, signal: null, at: 0 } })).toBe('exited 0');
    expect(paneState({ state: 'starting', exit: null })).toBe('starting');
  });

  it('says what a running agent is doing, never a word that is not an agent state', () => {
    expect(paneState({ state: 'running', exit: null, attrs: { 'agent.state': 'waiting' } })).toBe('needs you');
    expect(paneState({ state: 'running', exit: null, attrs: { 'agent.state': 'working' } })).toBe('working');
    // The agent's CLI left while its pane runs on (a shell after it): the pane's own state.
    expect(paneState({ state: 'running', exit: null, attrs: { 'agent.state': 'exited' } })).toBe('running');
    // A joined host's pane says what it likes: only the known words are taken.
    expect(paneState({ state: 'running', exit: null, attrs: { 'agent.state': '\x1b[2Jpwned' } })).toBe('running');
    expect(paneState({ state: 'running', exit: null, attrs: { 'agent.state': 'toString' } })).toBe('running');
    expect(paneState({ state: 'exited', exit: { code: 0, signal: null, at: 0 }, attrs: { 'agent.state': 'working' } })).toBe('exited 0');
  });
});

describe('infoText', () => {
  it('says the start as a local time and its age, memory in MiB, in aligned lines', () => {
    const started = new Date(2026, 11, 6, 13, 27, 5).getTime();
    const text = infoText(
      { host: 'box', version: '0.1.0', protocol: 1, pid: 42, socket: null, startedAt: started, rev: 7, panes: 3, sessions: 1, clients: 2, memory: { rss: 73_723_904, heapUsed: 14_521_464 } },
      started + 3 * 3600_000 + 5 * 60_000,
    );
    expect(text.split('\n')).toEqual([
      'host:     box',
      'version:  0.1.0 (protocol 1)',
      'pid:      42',
      'socket:   - (this server listens on no socket)',
      'started:  2026-12-06 13:27:05, 3h05m ago',
      'panes:    3 in 1 session',
      'clients:  2 (this command among them)',
      'memory:   70.3 MiB resident, 13.8 MiB of it JS heap in use',
      "revision: 7 (the state's change count: it moves with every change a client sees)",
    ]);
  });

  it('says bytes in the unit a person reads', () => {
    expect([bytesText(812), bytesText(3482), bytesText(1.25 * 1024 ** 3)]).toEqual(['812 B', '3.4 KiB', '1.3 GiB']);
  });
});

describe('sendBytes', () => {
  const text = (s: string, raw = false, noNewline = false) => sendBytes(Buffer.from(s), { raw, noNewline }).toString();

  it('types the text and presses Enter (\\r)', () => {
    expect(text('echo hi')).toBe('echo hi\r');
  });

  it('sends line breaks as Enter and does not double a trailing one', () => {
    expect(text('a\nb\r\nc\n')).toBe('a\rb\rc\r');
  });

  it('leaves Enter off with --no-newline', () => {
    expect(text('ls', false, true)).toBe('ls');
  });

  it('sends raw bytes exactly as given', () => {
    const bytes = Buffer.from([0x03, 0x0a, 0xff, 0x1b]);
    expect(sendBytes(bytes, { raw: true, noNewline: false })).toEqual(bytes);
  });
});
