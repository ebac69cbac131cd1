// Bounds on what agents (or anything speaking for them) can make the server
// remember: queued deliveries and hook session records. Each past its bound is
// refused (`busy`) or pruned oldest-first, so no client grows the server forever.

/**
 * Mail lines waiting to be typed into one agent's pane when it next waits
 * (`pane mail --deliver`). Each is typed one per wait, so more than this many
 * queued would take longer to type than anyone would want; past it, --deliver is
 * refused with `busy` (the mail itself is still delivered to the Maildir).
 */
export const MAX_DELIVERY_QUEUE = 64;
/**
 * Bytes of the mail lines waiting to be typed into one agent's pane, all together.
 * The count alone let 48 queued mails of 1 MiB hold 47 MiB; a line is typed at a
 * prompt, where a few KiB is already long. Past it, --deliver is refused with `busy`
 * and nothing is filed (the refusal says to send it without --deliver).
 */
export const MAX_DELIVERY_QUEUE_BYTES = 256 << 10;
/**
 * Bytes of one mail typed into an agent's pane (`--deliver`): a prompt takes a
 * paragraph, not a file. A longer body is cut there with a note that the whole
 * mail is in its Maildir (`pane mail --read`).
 */
export const MAX_DELIVERED_LINE_BYTES = 16 << 10;
/**
 * Hook session records one agent keeps (one per session id its hooks name). A
 * real agent runs a handful of sessions; a hook sender inventing ids would
 * otherwise grow the map forever. The oldest beyond this are forgotten.
 */
export const MAX_HOOK_SESSIONS_PER_AGENT = 32;
/**
 * Characters of an agent's last prompt it keeps (finger, agent/list, the board): a
 * prompt can be a pasted file, and finger shows a line of it, /agents 300 characters.
 */
export const LAST_PROMPT_KEPT = 2000;
/** Session id → agent records across all agents, pruned oldest-first past this. */
export const MAX_HOOK_SESSIONS = 1024;
/**
 * Agents known only from hooks (no account: an agent CLI started by hand) that a
 * hook may bring into being. Each is a name in `pane finger` and a runtime the
 * server keeps; a person's hooks inventing names (cwd, X-Pane-Agent) would grow
 * both forever. Past it, the ones with no live session are forgotten, oldest
 * first; if all are live, the hook is refused (`busy`). Agents with an account
 * are made only by the person or agent/add, never by a hook.
 */
export const MAX_HOOK_ONLY_AGENTS = 64;

/** Drops the oldest entries of a Map (insertion order) until it holds at most `max`, never `keep`. */
export function pruneOldest<K, V>(map: Map<K, V>, max: number, keep?: K): void {
  for (const k of map.keys()) {
    if (map.size <= max) return;
    if (k !== keep) map.delete(k);
  }
}
