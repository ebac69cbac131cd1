// Acknowledgement flow control, both halves' numbers in one place: the server
// (server/pty/fanout.ts) pauses a pane's PTY above a client's high mark of unacked
// bytes and resumes below half of it; a client (renderer/src/term/ackMeter.ts, the
// benches) acks what it has parsed in chunks. The two sides must agree, so the
// window's bounds, the ack size and the rule tying them live here, checked at load.

/**
 * The server sizes each client's high mark to this many ms of the rate it has
 * been acking at, within FLOW_HIGH_MIN..FLOW_HIGH_MAX; its low mark is half.
 * Why 75 ms: see server/pty/fanout.ts (the low mark must cover an ack's trip,
 * the PTY read and a 5 ms batch; 50 ms cost ~5% of the renderer's throughput).
 */
export const FLOW_TARGET_MS = 75;

/**
 * The smallest high mark, and the one a client starts with until it has acked
 * enough to be measured. Slow clients (`yes` on a loaded machine) sit here:
 * Ctrl-C then shows in ~50-80 ms instead of ~350 ms. Its low mark (64 KiB) must
 * not be below ACK_CHUNK (see the check below).
 */
export const FLOW_HIGH_MIN = 128 << 10;

/**
 * The largest: 75 ms of a page parsing ~27 MiB/s (xterm.js alone, decision 026).
 * At the old 512 KiB a fast page's low mark was ~10 ms of its parsing, less than
 * an ack's round trip, and the page waited for data 15-20% of a `cat`.
 */
export const FLOW_HIGH_MAX = 2 << 20;

/**
 * A client acks once this many parsed bytes are pending: few enough acks to
 * cost nothing, and no more than the smallest window's low mark, so a client
 * acking only whole chunks always releases a pause (ACK_IDLE_MS acks the rest).
 */
export const ACK_CHUNK = 64 << 10;

/** A client acks whatever is pending after this idle time, so small outputs are acked too. */
export const ACK_IDLE_MS = 10;

/**
 * The rule the two sides keep: an ack chunk fits under the low mark (half the
 * high mark) of the smallest window. Were it larger, a client paused at
 * FLOW_HIGH_MIN with less than a chunk parsed-but-unacked could wait for its
 * idle timer at every pause, or, acking only whole chunks, never resume.
 * Returns the broken rule in words, or null.
 */
export function flowRuleBroken(o: { ackChunk: number; highMin: number; highMax: number }): string | null {
  if (!(o.highMin > 0 && o.highMin <= o.highMax)) return `the window's bounds are out of order (FLOW_HIGH_MIN ${o.highMin}, FLOW_HIGH_MAX ${o.highMax})`;
  if (!(o.ackChunk > 0 && o.ackChunk <= o.highMin / 2)) return `ACK_CHUNK (${o.ackChunk}) must be at most the smallest window's low mark, FLOW_HIGH_MIN / 2 (${o.highMin / 2})`;
  return null;
}

const broken = flowRuleBroken({ ackChunk: ACK_CHUNK, highMin: FLOW_HIGH_MIN, highMax: FLOW_HIGH_MAX });
if (broken) throw new Error(`kits/protocol/flow.ts: ${broken}`);

/**
 * Keys a terminal's line discipline turns into a signal: INTR ^C, QUIT ^\, SUSP ^Z.
 * The kernel flushes the PTY's output queue when it sends one; both halves act on
 * it too: the page drops the output waiting to be parsed (renderer termView.ts),
 * the server sends what follows at once, unbatched (server/pty/terminal.ts).
 */
const SIGNAL_KEYS = new Set([0x03, 0x1c, 0x1a]);
/** Longest input still taken as a typed key (a key's bytes), not a paste that happens to hold one. */
const SIGNAL_KEY_INPUT_MAX = 4;

/** Whether this input is a typed signal key (see SIGNAL_KEYS). */
export function isSignalKey(data: Uint8Array): boolean {
  return data.byteLength <= SIGNAL_KEY_INPUT_MAX && data.some((b) => SIGNAL_KEYS.has(b));
}
