// finger(1) for agents, as pure text: the long form (one block per agent: panes
// with quadrant and state, project, last prompt, topics, claims, mail, .plan) and
// the short table (finger -s, and the peers view). Shared by the CLI and `pane mcp`.
import { ago, STATE_WORDS } from '../format';
import { clip, shown, shownKeepingTabs } from '../../../protocol/shown';
import type { AgentInfo } from '../../../protocol/agent';
import type { Prediction } from '../../../protocol/awareness';
import { partnersOf, partnerText } from '../../../protocol/partners';

/** Peers named in finger's "Converging with" line: the strongest, as the tag names them. */
export const FINGER_PARTNERS = 3;

/** "qwen 73% on token, refresh, token.ts (approaching)": whom the agent converges with, strongest first. */
export function convergingLine(name: string, predictions: readonly Prediction[]): string | null {
  const partners = partnersOf(name, predictions).slice(0, FINGER_PARTNERS);
  if (partners.length === 0) return null;
  return `Converging with: ${partners.map((x) => `${partnerText(x)} (${x.prediction.type})`).join('; ')}`;
}

/** "14:05" today, else "Nov 21 14:05" (local time, as finger prints login times). */
export function clock(t: number, now: number): string {
  const d = new Date(t);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (new Date(now).toDateString() === d.toDateString()) return hm;
  return `${d.toLocaleString('en-US', { month: 'short' })} ${d.getDate()} ${hm}`;
}

/** The source of the pane whose state is the agent's (the one that needs the person most). */
const stateSourceOf = (a: AgentInfo) => {
  const s = a.panes.find((p) => p.state === a.state)?.stateSource;
  return s ? { stateSource: s } : {};
};

/** "needs you (observed)": the state, and whether the CLI reported it or pane saw it. */
const stateOf = (p: { state: AgentInfo['state']; stateSource?: 'reported' | 'observed' }) => `${STATE_WORDS[p.state]}${p.stateSource ? ` (${p.stateSource})` : ''}`;

function col(left: string, right: string, width = 40): string {
  return left.length >= width ? `${left}  ${right}` : left.padEnd(width) + right;
}

/** An agent's login as finger shows it: NAME here, NAME@HOST for a joined host's agent. */
export const loginOf = (a: AgentInfo): string => (a.host ? `${a.name}@${a.host}` : a.name);

/** One agent, long form; `predictions` (this server's open ones) add whom it converges with. */
export function fingerLong(a: AgentInfo, now = Date.now(), predictions: readonly Prediction[] = []): string {
  const lines: string[] = [];
  lines.push(col(`Login: ${loginOf(a)}`, `App: ${a.app ?? (a.account ? '-' : 'unknown (hook-only)')}`));
  lines.push(col(`Directory: ${a.home ?? '(no account: known from hooks)'}`, `Project: ${a.project ?? '-'}`));
  lines.push(`State: ${stateOf({ state: a.state, ...stateSourceOf(a) })} since ${clock(a.since, now)} (${ago(now - a.since)})${a.source === 'none' ? '' : `, ${a.source === 'hooks' ? 'reported through hooks' : 'observed from its output'}`}`);
  if (a.reports && !a.reports.context) lines.push(`Its CLI (${a.reports.dialect} hooks) takes no context from pane: peers and claims reach it as mail only.`);
  if (a.panes.length === 0 && a.sessions.length === 0) lines.push('No panes.');
  for (const p of a.panes) {
    lines.push(`On pane ${p.id}${p.quadrant ? ` (${p.quadrant})` : ''}: ${stateOf(p)} since ${clock(p.since, now)} (${ago(now - p.since)}), cwd ${p.cwd}`);
    if (p.worktree) lines.push(`  worktree ${p.worktree}`);
  }
  for (const s of a.sessions) lines.push(`Hook session ${s.id.slice(0, 12)} (no pane): ${STATE_WORDS[s.state]} since ${clock(s.since, now)}, cwd ${s.cwd || '-'}`);
  if (a.lastPrompt !== null) lines.push(`Last prompt${a.lastPromptAt !== null ? ` (${clock(a.lastPromptAt, now)})` : ''}: ${a.lastPrompt.replace(/\s+/g, ' ').slice(0, 200)}`);
  if (a.topics.length > 0) lines.push(`Topics: ${a.topics.join(', ')}`);
  // This server's predictions name this server's agents; a joined host's agent is converged with there.
  const converging = a.host ? null : convergingLine(a.name, predictions);
  if (converging) lines.push(converging);
  if (a.claims.length > 0) lines.push(`Claims: ${a.claims.join(', ')}`);
  if (a.account) lines.push(a.unread === 0 ? 'No unread mail.' : `${a.unread} unread mail${a.unread > 1 ? 's' : ''}.`);
  const plan = a.plan.replace(/\s+$/, '');
  if (plan === '') lines.push('No Plan.');
  else lines.push('Plan:', ...plan.split('\n').map((l) => `  ${l}`));
  // A plan, a cwd, a prompt are the agent's (or its host's) words: each line escaped, so none drives the terminal or starts a line of its own.
  return lines.map(shownKeepingTabs).join('\n');
}

/** Every agent, long form; `guest`: the caller speaks through an attach grant ($PANE_GRANT), which shows no agent and adds none. */
export function fingerAll(agents: readonly AgentInfo[], now = Date.now(), predictions: readonly Prediction[] = [], guest = false): string {
  if (agents.length === 0 && guest) return 'No agents here for a guest: an attach grant shows one session’s panes, not its agents.';
  if (agents.length === 0) return 'No agents. Add one with `pane agent add NAME`, or launch one: `pane agent run`.';
  return agents.map((a) => fingerLong(a, now, predictions)).join('\n\n');
}

const BADGE: Record<AgentInfo['state'], string> = { working: '● working', waiting: '◆ needs you', done: '✓ done', ready: '› ready', idle: '○ idle', exited: '× exited' };

/** The short table: one line per agent (finger -s, and the peers view's rows). */
export function fingerShort(agents: readonly AgentInfo[], now = Date.now()): string[] {
  const rows = agents.map((a) => [
    loginOf(a),
    BADGE[a.state],
    ago(now - a.since),
    a.panes.map((p) => `${a.host ? p.id : p.pane}${p.quadrant ? ` ${p.quadrant}` : ''}`).join(', ') || (a.sessions.length ? 'hooks' : '-'),
    a.account ? String(a.unread) : '-',
    a.topics.slice(0, 3).join(',') || '-',
    (a.lastPrompt ?? '').replace(/\s+/g, ' '),
  ].map(shown));
  const head = ['Login', 'State', 'Since', 'Panes', 'Mail', 'Topics', 'Last prompt'];
  const widths = head.map((h, i) => Math.min(i === 6 ? 60 : 24, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => clip(c, widths[i]!).padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [fmt(head), ...rows.map(fmt)];
}
