// An agent's state words, free of zod: the CLI names them at start-up (pane wait
// --state), and protocol modules that cannot import the agent family (pane.ts, which
// it imports) build their schemas from the same list.

/**
 * working: on a turn; waiting: needs the person (a permission, a question, a notification);
 * done: finished its turn and sits at its prompt, asking nothing; ready: at its prompt
 * before its first turn (started, nothing asked of it yet: "done" said a fresh agent had
 * finished something); idle: silent, nothing known; exited: its program ended. Shown as
 * working / needs you / done / ready.
 */
export const AGENT_STATES = ['working', 'waiting', 'done', 'ready', 'idle', 'exited'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** An agent's state in words, as every view says it (finger, `pane ls`, `pane wait`, `awareness agents`). */
export const STATE_WORDS: Record<AgentState, string> = {
  working: 'working',
  waiting: 'needs you',
  done: 'done',
  ready: 'ready',
  idle: 'idle',
  exited: 'exited',
};

/** At its prompt, taking input: where mail is typed and `write` lands (done or ready). */
export const atPrompt = (s: AgentState): boolean => s === 'done' || s === 'ready';

/**
 * The longest a pane/wait is held: a day (a nightly build, a long agent turn). A
 * wait holds a deadline and a place in the server's list, nothing more, and ends
 * with its connection.
 */
export const MAX_WAIT_MS = 86_400_000;

/** A wait's length in words: 5000 → "5 s", 1500 → "1.5 s", 90000 → "90 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
