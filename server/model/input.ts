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
 * Types `data` into the pane. A string is decoded as `encoding` only after the
 * input queue's bound (Terminal.checkInput) let its size through. Throws a typed
 * refusal for a pane with no terminal, a full queue (`busy`) or a key other than
 * Enter for an ended program.
 */
export function typeInto(server: PaneServer, pane: Pane, data: string | Uint8Array, encoding: 'utf8' | 'base64' = 'utf8'): InputTaken {
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
  t.write(typeof data === 'string' ? Buffer.from(data, encoding) : data);
  return { bytes: size, rerun: false };
}
