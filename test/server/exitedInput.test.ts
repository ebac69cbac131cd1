// Keys for a pane whose program ended, at both doors of a real server over its unix
// socket: a binary INPUT frame and pane/input reach the PTY through one function
// (server/model/input.ts), so each refuses a key other than Enter with the same
// refusal (naming the pane, how its program ended and the fix) and each reruns
// the program on Enter, the pane's rerun prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResults, Connection } from '../../kits/client/index';
import { PaneFault } from '../../kits/protocol/error';
import { connectUnix } from '../../kits/node/socketTransport';
import { harness, until, type Harness } from './harness';

let h: Harness;
let c: Connection;
const frameErrors: PaneFault[] = [];
/** `client/refused` events as /pane/log writes them: door and reason. */
const refused: string[] = [];

beforeAll(async () => {
  h = await harness();
  c = new Connection(await connectUnix(h.socketPath), { checkResult: checkResults });
  await c.hello({ client: { name: 'doors', kind: 'test' }, capabilities: ['read', 'write'] });
  c.onError((e) => frameErrors.push(e));
  c.onEvent((event, _rev, data) => {
    const d = data as { door: string; reason: string };
    if (event === 'client/refused') refused.push(`${d.door}: ${d.reason}`);
  });
  await c.call('events/subscribe', { families: ['client'] });
});
afterAll(async () => {
  c?.close();
  await h?.close();
});

/** How many times the pane's program has run, by the line each run prints. */
async function runs(pane: number): Promise<number> {
  const r = await c.call('pty/read', { pane, from: 0, maxBytes: 1 << 20 });
  return r.data.split('ran-once').length - 1;
}

async function state(pane: number): Promise<string> {
  return (await c.call('pane/get', { pane })).state;
}

/** A pane whose program printed its line and exited 3, once `count` runs have ended. */
async function ended(pane: number, count: number): Promise<void> {
  await until(`run ${count} of pane ${pane} to end`, async () => (await runs(pane)) === count && (await state(pane)) === 'exited');
}

async function refusal(p: Promise<unknown>): Promise<PaneFault> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PaneFault) return e;
    throw e;
  }
  throw new Error('expected a refusal, got success');
}

describe('input for a pane whose program ended', () => {
  let pane: number;
  beforeAll(async () => {
    pane = (await c.call('pane/split', { direction: 'horizontal', ratio: 50, launch: { program: '/bin/sh', args: ['-c', 'echo ran-once; exit 3'] } })).pane;
    await ended(pane, 1);
  });

  it('refuses a key other than Enter alike at pane/input and in a binary INPUT frame, naming the pane, its exit and the fix', async () => {
    const viaCall = await refusal(c.call('pane/input', { pane, data: 'x' }));
    const before = frameErrors.length;
    c.sendInput(pane, Buffer.from('x'));
    const viaFrame = await until('the INPUT frame’s refusal', () => frameErrors[before]);
    expect(viaCall.message).toMatch(new RegExp(`^pane ${pane}'s program \\(sh\\) has ended \\(exited 3\\), so nothing reads input there; send Enter alone to run it again, or \`pane restart -t ${pane}\``));
    expect({ code: viaFrame.code, message: viaFrame.message }).toEqual({ code: viaCall.code, message: viaCall.message });
    // A frame has no reply, so its refusal also lands in /pane/log, once until a frame to that pane is taken.
    await until('the refusal in the log', () => refused.find((l) => l.startsWith(`pane ${pane}'s input: `) && l.endsWith(viaCall.message)));
    c.sendInput(pane, Buffer.from('y'));
    await c.call('pane/list', {}); // the frame before it has been handled
    expect(frameErrors.length).toBe(before + 1);
    // Refused, not taken: the program did not run again.
    expect(await runs(pane)).toBe(1);
    expect(await state(pane)).toBe('exited');
  });

  it('refuses input for a pane with no program alike at both doors, naming its body', async () => {
    const text = (await c.call('pane/split', { direction: 'vertical', ratio: 50, kind: 'text' })).pane;
    const viaCall = await refusal(c.call('pane/input', { pane: text, data: '\r' }));
    const before = frameErrors.length;
    c.sendInput(text, Buffer.from('\r'));
    const viaFrame = await until('the INPUT frame’s refusal', () => frameErrors[before]);
    expect(viaCall.message).toBe(`pane ${text}'s body is text, with no program to read input; keys go only to panes running one (terminal, agent)`);
    expect({ code: viaFrame.code, message: viaFrame.message }).toEqual({ code: viaCall.code, message: viaCall.message });
    // Made without a program, yet it runs none: not marked as the person's shell (a restart would otherwise treat it as one).
    const { panes } = await c.call('pane/list', {});
    expect(panes.find((p) => p.n === text)!.attrs['default-shell']).toBeUndefined();
  });

  it('reruns the program on Enter at either door', async () => {
    expect(await c.call('pane/input', { pane, data: '\r' })).toEqual({ pane, bytes: 1 });
    await ended(pane, 2);
    const before = frameErrors.length;
    c.sendInput(pane, Buffer.from('\r'));
    await ended(pane, 3);
    expect(frameErrors.length).toBe(before);
  });

  it('keeps each run on screen, one below the other (the restart reset leaves the cursor where it was)', async () => {
    // Before: the restart reset left the alternate screen by 1049, whose cursor restore put a
    // program that never saved a cursor at the top-left, so each rerun overwrote the first line.
    const text = (await c.call('pty/screen', { pane, form: 'text' })).text;
    expect(text.split('\n').filter((l) => l.trim() !== '')).toEqual(['ran-once', 'ran-once', 'ran-once']);
  });
});
