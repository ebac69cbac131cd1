// The agent status machine as pure functions: which hook event moves an agent to
// which state, what observation of a pane (output, silence, screen text) means,
// and how several panes and sessions fold into one badge. No clocks, no I/O.
import type { AgentState } from '../../kits/protocol/agent';
import { clip } from '../../kits/protocol/shown';

export interface Transition {
  state: AgentState;
  reason: string;
  /** Worth telling the human (a notification): the agent now waits for them. */
  notify?: string;
  /** reported: from the CLI's hooks; observed: from its screen, OSC 9/99/777 or BEL. Default: reported once its pane reports through hooks. */
  source?: 'reported' | 'observed';
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const short = (s: string, n = 80) => clip(s, n);

/** Notifications that mean "the agent is blocked on the human" (Claude Code's permission and idle prompts). */
function isWaitingNotification(input: Record<string, unknown>): boolean {
  const kind = str(input.notification_type);
  if (kind !== '') return /permission|idle|elicitation|input/.test(kind);
  return /permission|waiting for your input|needs your (attention|input|approval)/i.test(str(input.message));
}

/**
 * A hook event (Claude Code's names and fields) → the state it means, or null for
 * events that say nothing about state (PostToolUse keeps working; unknown ones are ignored).
 */
export function hookTransition(input: Record<string, unknown>): Transition | null {
  const ev = str(input.hook_event_name);
  switch (ev) {
    case 'SessionStart':
      return { state: 'ready', reason: `session started (${str(input.source) || 'startup'}), at its prompt` };
    case 'UserPromptSubmit':
      return { state: 'working', reason: `prompt: ${short(str(input.prompt))}` };
    case 'PreToolUse':
      return { state: 'working', reason: `tool ${str(input.tool_name) || '?'}` };
    case 'PostToolUse':
      return { state: 'working', reason: `tool ${str(input.tool_name) || '?'} done` };
    case 'Stop':
      return { state: 'done', reason: 'finished its turn' };
    case 'StopFailure': {
      // Claude Code: the turn ended on an API error (no Stop follows). Done, the error named, and worth telling.
      const err = short(str(input.error) || str(input.error_message) || str(input.message) || str(input.reason) || 'an API error');
      return { state: 'done', reason: `its turn ended on an error: ${err}`, notify: `its turn ended on an error: ${err}` };
    }
    case 'PermissionRequest':
      return { state: 'waiting', reason: `asks permission for ${str(input.tool_name) || 'a tool'}`, notify: `asks permission for ${str(input.tool_name) || 'a tool'}` };
    case 'Notification':
      if (!isWaitingNotification(input)) return null;
      return { state: 'waiting', reason: short(str(input.message) || 'needs you'), notify: short(str(input.message) || 'needs you') };
    case 'SessionEnd':
      return { state: 'exited', reason: `session ended (${str(input.reason) || 'exit'})` };
    default:
      return null;
  }
}

/** Per-CLI screen patterns: a match on the last lines says waiting or working. */
export interface PromptPatterns {
  name: string;
  /** How many trailing non-blank screen lines to test. */
  lines: number;
  /** A question to the person on screen: needs you. */
  waiting: RegExp[];
  working: RegExp[];
  /** Its prompt, asking nothing: done. */
  done: RegExp[];
  /**
   * Questions a CLI asks before or outside a turn — first run, login, folder trust,
   * API key, permission — found anywhere on its screen: needs you, whatever its hooks
   * last said (a CLI that reported SessionStart before its login dialog is not done).
   */
  questions: RegExp[];
}

/** The question on screen, if any: the first line a `questions` pattern matches (the whole screen, not its tail). */
export function questionOnScreen(screenText: string, p: PromptPatterns): string | null {
  const lines = screenText.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const re of p.questions) {
    const line = lines.find((l) => re.test(l));
    if (line !== undefined) return short(line, 80);
    if (re.test(screenText)) return short(re.source, 80);
  }
  return null;
}

/**
 * After output falls silent: the screen's tail decides. A working pattern wins
 * (a spinner line that says "esc to interrupt"), then a waiting one (a question to
 * the person), then a done one (its prompt), else the agent is idle: silent, nothing known.
 */
export function observeScreen(screenText: string, p: PromptPatterns): Transition {
  const tail = screenText
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '')
    .slice(-p.lines);
  const text = tail.join('\n');
  const question = questionOnScreen(screenText, p);
  if (question !== null) return { state: 'waiting', reason: `question on screen: ${question}`, notify: `asks: ${question}` };
  const working = p.working.find((re) => re.test(text));
  if (working) return { state: 'working', reason: `screen shows ${working.source}` };
  const waiting = p.waiting.find((re) => tail.some((l) => re.test(l)) || re.test(text));
  if (waiting) return { state: 'waiting', reason: `question on screen (${p.name})`, notify: `asks: ${short(tail.at(-1)?.trim() ?? '', 60)}` };
  const done = p.done.find((re) => tail.some((l) => re.test(l)) || re.test(text));
  if (done) return { state: 'done', reason: `prompt on screen (${p.name})` };
  return { state: 'idle', reason: 'silent, no prompt on screen' };
}

/** Which state wins the badge when an agent has several panes or sessions: the one that needs the human most. */
const RANK: Record<AgentState, number> = { waiting: 5, working: 4, done: 3, ready: 2, idle: 1, exited: 0 };

export function foldStates(states: readonly { state: AgentState; since: number }[]): { state: AgentState; since: number } | null {
  let best: { state: AgentState; since: number } | null = null;
  for (const s of states) {
    if (!best || RANK[s.state] > RANK[best.state] || (RANK[s.state] === RANK[best.state] && s.since < best.since)) best = s;
  }
  return best;
}
