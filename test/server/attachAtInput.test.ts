// pty/attach's atInput (decision 042): a window's Ctrl-C in a flood drops the output
// waiting in the page and re-attaches. Asked at the stream's end, the re-attach lost
// what the key brought whenever the program answered before the re-attach was asked
// (the bench saw one interrupt in ten leave no prompt on screen). Asked atInput, the
// stream resumes where this client's keys reached the program: the answer is sent
// however soon it came, and nothing the client already had is sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../../kits/client/connection';
import { harness, waitForOutput, type Harness } from './harness';

let h: Harness;
let c: Connection;

beforeAll(async () => {
  h = await harness();
  c = await h.connect();
});

afterAll(async () => {
  await h?.close();
});

/** A pane that prints a line, then answers one line of input; its number. */
async function answering(name: string): Promise<number> {
  const s = await c.call('session/new', { name, launch: { program: '/bin/sh', args: ['-c', 'printf "before\\n"; read x; printf "answer-%s\\n" "$x"; exec sleep 60'] } });
  const n = (await c.call('session/get', { session: s.session })).focused!;
  await waitForOutput(c, n, 'before');
  return n;
}

/** What the pane's stream sends this client from its next attach, as text, until `needle` or `ms` pass. */
function collect(n: number, needle: string, ms: number): { text: () => string; done: Promise<void> } {
  let text = '';
  let stop: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const off = c.onOutput((p, _o, d) => {
      if (p !== n) return;
      text += Buffer.from(d).toString('utf8');
      if (text.includes(needle)) resolve();
    });
    stop = () => {
      clearTimeout(timer);
      off();
    };
  });
  return { text: () => text, done: done.then(() => stop()) };
}

describe('pty/attach atInput', () => {
  it('resumes where the client\'s keys reached the program: what came before them is skipped, and an answer printed before the re-attach is still sent', async () => {
    const n = await answering('answers');
    const had = (await c.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
    await c.call('pane/input', { pane: n, data: 'go\r' });
    // The program has answered before the re-attach is asked: the race a window's Ctrl-C can lose.
    await waitForOutput(c, n, 'answer-go');
    const mark = (await c.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).inputAt;
    expect(mark).toBe(had);
    // At the stream's end (the old re-attach): the answer is behind it, and never sent.
    const end = await c.call('pty/attach', { pane: n, mode: 'from', from: Number.MAX_SAFE_INTEGER });
    expect(end.from).toBeGreaterThan(mark!);
    // The client had taken nothing of this pane: "before" was on its way when the key came, and is skipped.
    const seen = collect(n, 'answer-go', 3000);
    const r = await c.call('pty/attach', { pane: n, mode: 'from', from: 0, atInput: true });
    await seen.done;
    expect(r.from).toBe(mark);
    expect(seen.text()).toContain('answer-go');
    expect(seen.text()).not.toContain('before');
    await c.call('pty/detach', { pane: n });
  });

  it('never resumes before what the client says it had, nor anywhere on a pane it never typed into', async () => {
    const n = await answering('untyped');
    const end = (await c.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
    // No keys of this client's here: the stream's end, whatever `from` says.
    expect((await c.call('pty/attach', { pane: n, mode: 'from', from: 0, atInput: true })).from).toBe(end);
    await c.call('pane/input', { pane: n, data: 'x\r' });
    await waitForOutput(c, n, 'answer-x');
    const now = (await c.call('pty/read', { pane: n, from: Number.MAX_SAFE_INTEGER, maxBytes: 1 })).streamEnd;
    // Further than the keys: the client's own position wins (nothing it had is sent again).
    expect((await c.call('pty/attach', { pane: n, mode: 'from', from: now, atInput: true })).from).toBe(now);
    // Snapshot mode takes no notice of it.
    expect((await c.call('pty/attach', { pane: n, mode: 'snapshot', atInput: true })).snapshot).toBeDefined();
    await c.call('pty/detach', { pane: n });
  });
});
