// pane/input with submit (pane send, mail delivery, MCP's send) into a program that
// reads whole lines and echoes nothing — a password prompt, a shell under
// `stty -echo` (issue 34: it used to wait the whole SUBMIT_WAIT_MAX_MS for an echo that
// never comes). The kernel's line editor holds the text already, so Enter follows at
// the shortest gap; a program that reads each key is still waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResults, Connection } from '../../kits/client/index';
import { connectUnix } from '../../kits/node/socketTransport';
import { SUBMIT_WAIT_MAX_MS } from '../../server/model/input';
import { harness, until, type Harness } from './harness';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = new Connection(await connectUnix(h.socketPath), { checkResult: checkResults });
  await c.hello({ client: { name: 'submit', kind: 'test' }, capabilities: ['read', 'write'] });
});
afterAll(async () => {
  c?.close();
  await h?.close();
});

const screen = async (pane: number) => (await c.call('pty/screen', { pane, form: 'text' })).text;

describe('typing into a program that reads whole lines with its echo off', () => {
  it('submits at once and the program gets the line; one that reads each key still gets its Enter', async () => {
    const { pane } = await c.call('pane/split', { launch: { program: 'bash', args: ['--norc', '--noprofile', '-c', 'printf "password: "; read -s x; echo; echo "got:$x"; stty -icanon -echo; printf "raw: "; head -c 8 | od -c; sleep 30'] } });
    await until('the prompt', async () => (await screen(pane)).includes('password:'));
    const t0 = performance.now();
    await c.call('pane/input', { pane, data: 'hunter2', submit: true });
    const took = performance.now() - t0;
    await until('the line read', async () => (await screen(pane)).includes('got:hunter2'));
    // Not the cap: the Enter went at the shortest gap (plus reading the terminal's modes).
    expect(took).toBeLessThan(SUBMIT_WAIT_MAX_MS);
    // Now each key is read (-icanon) and nothing echoes: the Enter still comes, after the wait.
    await until('the raw prompt', async () => (await screen(pane)).includes('raw:'));
    await c.call('pane/input', { pane, data: 'abcdefg', submit: true });
    // (ICRNL is still on: the terminal hands the Enter over as \n.)
    await until('eight bytes read, the Enter last', async () => /a\s+b\s+c\s+d\s+e\s+f\s+g\s+\\[rn]/.test(await screen(pane)));
  }, 30_000);
});
