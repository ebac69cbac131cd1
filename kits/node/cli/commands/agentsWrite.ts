// `pane write`, both sides of a write(1) conversation. The human's side opens a
// conversation pane beside the agent (or talks here with --here): each line goes
// to the agent's input marked as from the human, and what the agent says back
// (agent/said, or its output with --output) is printed as it comes.
import readline from 'node:readline';
import type { CommandContext } from '../context';
import { OpError, UsageError } from '../errors';
import type { Connection } from '../../../client/connection';

async function lines(stdin: NodeJS.ReadableStream, each: (l: string) => Promise<void>): Promise<void> {
  const rl = readline.createInterface({ input: stdin, terminal: false });
  for await (const l of rl) if (l.trim() !== '') await each(l);
}

/** Printable text of terminal output: escape sequences and carriage returns removed. */
export function plainText(s: string): string {
  return s
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[@-_]/g, '')
    .replace(/\r(?!\n)/g, '\n')
    .replace(/\r/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

export async function runWrite(ctx: CommandContext, words: string[], o: { here: boolean; output: boolean }): Promise<number> {
  const c = await ctx.connect();
  const me = c.welcome?.user ?? '?';
  const asAgent = ctx.io.env.PANE_AGENT !== undefined && ctx.agentToken() !== undefined;
  if (asAgent) {
    // The agent's side: TEXT (or stdin lines) answers the human; a first word naming another agent writes to it.
    let to: string | undefined;
    if (words.length >= 2 && /^[a-z][a-z0-9-]{0,31}$/.test(words[0]!)) {
      const { agents } = await c.call('agent/list', {});
      if (agents.some((a) => a.name === words[0] && a.name !== me)) to = words.shift();
    }
    const send = (text: string) => c.call('agent/write', { ...(to ? { to } : {}), text }).then(() => undefined);
    if (words.length > 0) await send(words.join(' '));
    else await lines(ctx.io.stdin, send);
    return 0;
  }
  const name = words.shift();
  if (name === undefined) throw new UsageError('write to whom? pane write NAME', 'write');
  const info = await c.call('agent/get', { name });
  if (words.length > 0) {
    await c.call('agent/write', { to: name, text: words.join(' ') });
    return 0;
  }
  const tty = (ctx.io.stdin as { isTTY?: boolean }).isTTY === true;
  if (!tty) {
    await lines(ctx.io.stdin, (l) => c.call('agent/write', { to: name, text: l }).then(() => undefined));
    return 0;
  }
  if (!o.here) {
    const r = await c.call('agent/open', { name, view: 'write' });
    ctx.out(`conversation with ${name} in pane ${r.id}`);
    return 0;
  }
  const pane = info.panes.find((p) => p.state !== 'exited') ?? info.panes[0];
  if (!pane) throw new OpError(`${name} has no pane to talk to; mail it instead: pane mail ${name}`);
  return converse(ctx, c, name, me, pane.pane, o.output);
}

async function converse(ctx: CommandContext, c: Connection, name: string, me: string, pane: number, showOutput: boolean): Promise<number> {
  const out = ctx.io.stdout as NodeJS.WriteStream;
  const rl = readline.createInterface({ input: ctx.io.stdin, output: out, terminal: true, prompt: `${me}> ` });
  const say = (line: string) => {
    readline.clearLine(out, 0);
    readline.cursorTo(out, 0);
    out.write(`${line}\n`);
    rl.prompt(true);
  };
  c.onEvent((event, _rev, data) => {
    const d = data as Record<string, unknown>;
    if (event === 'agent/said' && d.from === name && d.to === me) say(`${name}: ${String(d.text)}`);
    else if (event === 'agent/state-changed' && d.name === name) say(`  — ${name} is ${String(d.state)}`);
  });
  await c.call('events/subscribe', { families: ['agent'] });
  if (showOutput) {
    let partial = '';
    c.onOutput((p, _off, data) => {
      if (p !== pane) return;
      const text = partial + plainText(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const l of parts) if (l.trim() !== '') say(`  │ ${l}`);
    });
    await c.call('pty/attach', { pane, mode: 'from', from: (await c.call('pty/read', { pane, maxBytes: 1 })).streamEnd });
  }
  out.write(`write: talking to ${name} (pane ${pane}). Lines go to its input marked [from ${me}]; Ctrl-D ends.\n`);
  rl.prompt();
  rl.on('line', (l) => {
    if (l.trim() === '') return rl.prompt();
    c.call('agent/write', { to: name, text: l }).then(
      () => rl.prompt(),
      (e: Error) => say(`  ! ${e.message}`),
    );
  });
  await new Promise<void>((resolve) => {
    rl.once('close', () => resolve());
    c.onClose(() => rl.close());
  });
  out.write('\nEOF\n');
  const view = ctx.io.env.PANE_VIEW;
  if (view && ctx.io.env.PANE_ID) await c.call('pane/close', { pane: ctx.io.env.PANE_ID }).catch(() => undefined);
  return 0;
}
