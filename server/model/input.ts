// The one way keys reach a pane's program: binary INPUT frames (transport/clientConn.ts)
// and pane/input (handlers/pane.ts) both come here, so each door treats a pane the
// same way. A pane whose program ended has its rerun prompt: Enter runs the program
// again (as in the window, renderer/src/term/deadPane.ts); any other key is refused,
// naming the pane, how its program ended and what to do, since nothing would read it.
import { faults } from '../../kits/protocol/error';
import { exitLabel, programOf } from '../../kits/protocol/exitLabel';
import { BodyKindSchema, type Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { bodyOf } from './bodies/registry';
import { restartPane } from './exited';

/** The body kinds that run a program, as a refusal names them. */
const runners = () => BodyKindSchema.options.filter((k) => bodyOf(k).runsProgram).join(', ');

/** Enter, as a terminal or a script sends it: the key that reruns a dead pane's program. */
const ENTER = new Set(['\r', '\n', '\r\n']);

/** What became of input: written to the program, or taken as Enter at the rerun prompt. */
export interface InputTaken {
  bytes: number;
  rerun: boolean;
}

/**
 * Types `data` into the pane as `by` (principalLabel: whose input it is, for
 * `pane wait --since-input`). A string is decoded as `encoding` only after the
 * input queue's bound (Terminal.checkInput) let its size through. Throws a typed
 * refusal for a pane with no terminal, a full queue (`busy`) or a key other than
 * Enter for an ended program.
 */
export function typeInto(server: PaneServer, pane: Pane, by: string, data: string | Uint8Array, encoding: 'utf8' | 'base64' = 'utf8'): InputTaken {
  const t = server.terminals.get(pane.n);
  if (!t) throw faults.failed(`pane ${pane.n}'s body is ${pane.kind}, with no program to read input; keys go only to panes running one (${runners()})`);
  const size = typeof data === 'string' ? Buffer.byteLength(data, encoding) : data.byteLength;
  if (!t.running) {
    const text = typeof data === 'string' ? Buffer.from(data, encoding).toString('latin1') : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
    if (pane.state === 'exited' && ENTER.has(text)) {
      try {
        restartPane(server, pane);
      } catch (e) {
        // the program cannot start again (removed since?): the pane stays as it was, and the sender learns why
        throw faults.failed(`pane ${pane.n}'s program (${programOf(pane)}) cannot run again: ${(e as Error).message}`);
      }
      return { bytes: size, rerun: true };
    }
    const what = pane.state === 'exited' ? `has ended (${exitLabel(pane.exit)})` : 'is not running';
    throw faults.failed(`pane ${pane.n}'s program (${programOf(pane)}) ${what}, so nothing reads input there; send Enter alone to run it again, or \`pane restart -t ${pane.n}\` (\`pane close -t ${pane.n}\` removes the pane)`);
  }
  t.checkInput(size); // refused before a buffer is made for it
  t.write(typeof data === 'string' ? Buffer.from(data, encoding) : data, by);
  return { bytes: size, rerun: false };
}

/**
 * The shortest gap between the text and its Enter (a fast typist's gap between keys). A TUI that reads a burst as a paste
 * (Gemini, Codex, Copilot, Qwen 0.15, Claude for long text) makes its Enter a newline
 * in the box; one read later it is the submit key. tmux's send-keys sends them as
 * separate keys for the same reason.
 */
export const SUBMIT_GAP_MIN_MS = 80;
/**
 * Quiet after the program's echo that counts as "it has taken the text": a TUI redraws
 * its box in one burst, but one that detects pastes by timing (Codex's paste burst)
 * holds the text a few tens of ms before it flushes it; a person's next key comes
 * later than this too.
 */
export const SUBMIT_SETTLE_MS = 60;
/**
 * The longest wait for that echo before Enter is sent anyway: a program that reads each
 * key and echoes nothing (a busy one) still gets its Enter, a little late. One that reads
 * whole lines (a shell under `stty -echo`, a password prompt) gets it at the shortest gap.
 */
export const SUBMIT_WAIT_MAX_MS = 1500;
/**
 * Characters of the text's end looked for in the program's output after the write: a TUI
 * redraws its input box with the text in it, so seeing them there means it has read the
 * text (output that is not about it — a start-up still drawing, a spinner — does not count).
 */
const ECHO_TAIL = 6;
/** Bytes of output after the write searched for that echo: a redrawn box, not a flood. */
const ECHO_SCAN_BYTES = 256 << 10;

/** `data` as text a screen shows: escape sequences and control characters gone. */
function visible(data: Buffer): string {
  // eslint-disable-next-line no-control-regex
  return data.toString('utf8').replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|[\x00-\x1f\x7f]/g, '');
}
/** How often the pane's stream is looked at while waiting. */
const SUBMIT_POLL_MS = 5;

/**
 * Types `text` as a person does: the text, then — once the program has taken it (the
 * end of the text came back in its output and the output settled, or SUBMIT_WAIT_MAX_MS
 * went by) — Enter as a keystroke of its
 * own. Every door that types for someone (pane/input with submit, mail delivery, pane
 * write, MCP's send) comes here. Resolves once Enter is written; the same refusals as
 * typeInto, for the text and for the Enter.
 */
export async function typeAndSubmit(server: PaneServer, pane: Pane, by: string, text: string | Uint8Array): Promise<InputTaken> {
  if (text.length === 0) return typeInto(server, pane, by, '\r'); // nothing to wait for: Enter alone (which also reruns an ended program)
  const t = server.terminals.get(pane.n);
  const before = t?.streamEnd ?? 0;
  const taken = typeInto(server, pane, by, text);
  if (taken.rerun || !t) return taken;
  const start = Date.now();
  // The end of the text as the program would draw it back (its last visible characters, no spaces: a box may wrap there).
  const tail = (typeof text === 'string' ? text : Buffer.from(text).toString('utf8')).replace(/[\x00-\x1f\x7f\s]+/g, '').slice(-ECHO_TAIL);
  let last = before;
  let lastChange = start;
  let seen = tail === '';
  // No echo by the shortest gap: a program that reads whole lines (a password prompt, a shell under `stty -echo`) takes the
  // Enter now whatever it shows, as the kernel's line editor has the text already; a TUI (each key read) is waited for.
  let lineMode: Promise<boolean | undefined> | undefined;
  let lines = false;
  for (;;) {
    await new Promise((r) => setTimeout(r, SUBMIT_POLL_MS));
    const now = Date.now();
    if (!seen && lineMode === undefined && now - start >= SUBMIT_GAP_MIN_MS) lineMode = t.readsLines().then((x) => (lines = x === true));
    if (lines) break;
    const end = t.streamEnd;
    if (end !== last) {
      last = end;
      lastChange = now;
      if (!seen) seen = visible(t.read(before, ECHO_SCAN_BYTES).data).replace(/\s+/g, '').includes(tail);
    }
    const echoed = seen && last > before && now - lastChange >= SUBMIT_SETTLE_MS;
    if ((echoed && now - start >= SUBMIT_GAP_MIN_MS) || now - start >= SUBMIT_WAIT_MAX_MS || !t.running) break;
  }
  const enter = typeInto(server, pane, by, '\r');
  return { bytes: taken.bytes + enter.bytes, rerun: false };
}
