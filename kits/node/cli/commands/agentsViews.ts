// The small interactive views the agent tag words open in a pane: hold a printed
// view until a key and close the pane; compose a mail (Subject:, body to Ctrl-D);
// edit an agent's .plan in $EDITOR. Loaded only when one of them runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { CommandContext } from '../context';

/** Waits for one key (or EOF), then closes the pane this runs in ($PANE_ID), if any. */
export async function holdAndClose(ctx: CommandContext): Promise<void> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  ctx.out('\n[press a key to close]');
  await new Promise<void>((resolve) => {
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.resume();
    stdin.once('data', () => resolve());
    stdin.once('end', () => resolve());
  });
  if (stdin.isTTY) stdin.setRawMode(false);
  stdin.pause();
  await closeView(ctx);
}

/** Closes the pane this runs in, only when it is a view pane that agent/open made ($PANE_VIEW). */
export async function closeView(ctx: CommandContext): Promise<void> {
  const me = ctx.io.env.PANE_ID;
  if (me && ctx.io.env.PANE_VIEW) await (await ctx.connect()).call('pane/close', { pane: me }).catch(() => undefined);
}

/** Asks for a subject (unless given) and reads the body until Ctrl-D or a line with a single ".". */
export async function compose(ctx: CommandContext, to: string, subject: string | undefined): Promise<{ subject: string; body: string }> {
  const rl = readline.createInterface({ input: ctx.io.stdin, output: ctx.io.stdout as NodeJS.WritableStream, terminal: true });
  const ask = (q: string) => new Promise<string>((res) => rl.question(q, res));
  ctx.out(`To: ${to}`);
  const subj = subject ?? (await ask('Subject: '));
  ctx.out('(end with Ctrl-D or a line with a single ".")');
  const lines: string[] = [];
  await new Promise<void>((resolve) => {
    rl.on('line', (l) => {
      if (l === '.') return rl.close();
      lines.push(l);
    });
    rl.once('close', () => resolve());
  });
  return { subject: subj, body: lines.join('\n') + '\n' };
}

/** Opens the agent's .plan in $VISUAL / $EDITOR (else nano, else vi) and saves it through the server. */
export async function editPlan(ctx: CommandContext, name: string): Promise<number> {
  const c = await ctx.connect();
  const info = await c.call('agent/get', { name });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-plan-')), `${name}.plan`);
  fs.writeFileSync(file, info.plan);
  const editor = ctx.io.env.VISUAL || ctx.io.env.EDITOR || (spawnSync('sh', ['-c', 'command -v nano'], { encoding: 'utf8' }).stdout.trim() ? 'nano' : 'vi');
  const r = spawnSync('sh', ['-c', `${editor} "$1"`, 'edit', file], { stdio: 'inherit' });
  if (r.status !== 0) {
    ctx.err(`pane plan: ${editor} exited with ${r.status ?? r.signal}; the plan is unchanged`);
    return 1;
  }
  const text = fs.readFileSync(file, 'utf8');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (text !== info.plan) await c.call('agent/plan', { name, text });
  ctx.out(text === info.plan ? 'plan unchanged' : `${name}'s plan saved`);
  await closeView(ctx);
  return 0;
}
