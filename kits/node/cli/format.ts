// Text the CLI prints: fixed-width tables and the `pane ls` / `session ls` /
// `info` rows. Pure functions of protocol data, so they are unit-tested alone.
import type { Result } from '../../protocol';
import { binaryScale } from '../../protocol/binaryScale';
import { exitLabel } from '../../protocol/exitLabel';
import { localTime } from '../localTime';
import type { Pane } from '../../protocol/model';
import type { AgentInfo } from '../../protocol/agent';
import { STATE_WORDS, type AgentState } from '../../protocol/agentState';
import { clipTail, shown, tildePath } from '../../protocol/shown';
import { CODE_REPLACED } from '../../protocol/codeReplaced';
import { remoteOf } from '../../protocol/standIn';

/** Longest cwd shown in a table before it is shortened from the left. */
const MAX_CWD = 40;

/**
 * Lays rows out in columns padded to the widest cell; the last column is never
 * padded (it is free text, like the tag). Header is the first row.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], o: { right?: ReadonlySet<number> } = {}): string {
  // Every cell may hold someone else's words (a host's cwd, an agent's title): escaped, one line each.
  const all = [header, ...rows.map((r) => r.map(shown))];
  const widths = header.map((_, c) => Math.max(...all.map((r) => width(r[c] ?? ''))));
  // Columns in o.right (numbers) are right-aligned, the rest left-aligned; the last left-aligned cell is not padded.
  const pad = (cell: string, c: number, last: boolean) => {
    const gap = ' '.repeat((widths[c] ?? 0) - width(cell));
    return o.right?.has(c) ? gap + cell : last ? cell : cell + gap;
  };
  return all
    .map((r) =>
      r
        .map((cell, c) => pad(cell, c, c === r.length - 1))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Display width, counting code points (good enough for names and paths). */
function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A pane's address as the user types it: N for the server's own panes, HOST:N for others. */
export function paneId(p: { n: number; host: string }, localHost: string): string {
  return p.host === localHost ? String(p.n) : `${p.host}:${p.n}`;
}

/** $HOME → ~, then long paths keep their tail: "…/deep/dir". */
export function shortPath(path: string, home: string | undefined): string {
  return clipTail(tildePath(path, home), MAX_CWD);
}

export { STATE_WORDS } from '../../protocol/agentState';

/**
 * running, starting, or how it ended: "exited 0", "killed (SIGKILL)" (as the window's tag says).
 * An agent's running pane says what the agent is doing instead (its `agent.state` attr):
 * working, needs you, done, ready, idle; a value that is none of these (a joined host's
 * pane says what it likes) is not shown.
 */
export function paneState(p: Pick<Pane, 'state' | 'exit'> & { attrs?: Pane['attrs'] }): string {
  if (p.state === 'running') {
    const agent = p.attrs?.['agent.state'];
    if (agent !== undefined && agent !== 'exited' && Object.hasOwn(STATE_WORDS, agent)) return STATE_WORDS[agent as AgentState];
  }
  if (p.state !== 'exited' || p.exit === null) return p.state;
  return exitLabel(p.exit);
}

/** The tag as one line: name, then the user's free text. */
export function tagText(p: Pick<Pane, 'tag'>): string {
  return [p.tag.name, p.tag.user].filter((s) => s.length > 0).join(' ').replace(/\s+/g, ' ');
}

export const LS_HEADER = ['ID', 'SESSION', 'SIGNATURE', 'OWNER', 'QUADRANT', 'STATE', 'PID', 'CWD', 'TAG'] as const;

/** `pane ls`: one row per pane; `sessionNames` maps session uuid → name. */
export function lsTable(panes: readonly Pane[], sessionNames: ReadonlyMap<string, string>, localHost: string, home?: string): string {
  const byId = new Map(panes.map((p) => [paneId(p, localHost), p]));
  const rows = panes.map((p) => {
    // A stand-in runs nothing here: its PID and CWD are its remote pane's, named with their host (that host's home is not ours).
    const shows = remoteOf(p);
    const there = shows === undefined ? undefined : byId.get(shows);
    const host = shows?.slice(0, shows.lastIndexOf(':'));
    return [
      paneId(p, localHost),
      sessionNames.get(p.session) ?? p.session.slice(0, 8),
      p.signature,
      p.owner || '-',
      p.attrs.quadrant ?? '-',
      paneState(p),
      shows === undefined ? (p.pid === null ? '-' : String(p.pid)) : there?.pid != null ? `${host}:${there.pid}` : '-',
      // A joined host's pane's cwd is a path on that host, whose home is not ours.
      shows === undefined ? shortPath(p.cwd, p.host === localHost ? home : undefined) : there ? `${host}:${shortPath(there.cwd, undefined)}` : `→ ${shows}`,
      tagText(p),
    ];
  });
  return table(LS_HEADER, rows);
}

export interface SessionSummary {
  id: string;
  name: string;
  panes: number;
  focused: number | null;
  createdAt: number;
}

export function sessionTable(sessions: readonly SessionSummary[]): string {
  // A joined host's session names are its own words: escaped, as every peer's text.
  const rows = sessions.map((s) => [shown(s.name), String(s.panes), s.focused === null ? '-' : String(s.focused), s.id]);
  return table(['NAME', 'PANES', 'FOCUSED', 'ID'], rows);
}

/** `key: value` lines, the values in one column. */
export function aligned(rows: readonly (readonly [string, string])[]): string {
  const w = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k}:${' '.repeat(w - k.length + 1)}${v}`).join('\n');
}

/** `pane info` for a person: the start as a local time and how long ago, memory in MiB, not epoch milliseconds and bytes (`--json` keeps those). */
export function infoText(info: Result<'server/info'>, now: number): string {
  const s = info.sessions === 1 ? '' : 's';
  return aligned([
    ['host', info.host],
    ['version', `${info.version} (protocol ${info.protocol})${info.codeReplaced ? `, ${CODE_REPLACED}` : ''}`],
    ['pid', String(info.pid)],
    ['socket', info.socket ?? '- (this server listens on no socket)'],
    ['started', `${localTime(info.startedAt)}, ${ago(now - info.startedAt)} ago`],
    ['panes', `${info.panes} in ${info.sessions} session${s}`],
    ['clients', `${info.clients} (this command among them)`],
    ['memory', `${bytesText(info.memory.rss)} resident, ${bytesText(info.memory.heapUsed)} of it JS heap in use`],
    ['revision', `${info.rev} (the state's change count: it moves with every change a client sees)`],
  ]);
}


/** "3s", "4m", "2h05m", "3d": how long ago, short enough for a table cell. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d`;
}

/** Bytes as a person reads them: "812 B", "3.4 KiB", "70.3 MiB", "1.2 GiB". */
export function bytesText(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  const { value: v, step: i } = binaryScale(n, units.length - 1);
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${units[i]}`;
}
