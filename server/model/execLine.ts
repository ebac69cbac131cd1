// A command line of a pane's vocabulary performed by default: parsed, announced
// (pane/executed) and run as the request it names, through the dispatcher it is
// handed; with fallback 'shell', a word that is no command runs in the session's
// +Errors pane (acme). pane/exec (handlers/pane.ts) and the write-back of a pane's
// event file (namespace/paneFiles.ts) both perform lines here.
import { faults } from '../../kits/protocol/error';
import type { MethodName, ParamsIn, Result } from '../../kits/protocol/index';
import type { Pane } from '../../kits/protocol/model';
import type { PaneSpec } from '../../kits/protocol/pane';
import type { PaneServer } from '../paneServer';
import { parseCommandLine } from './commandLine';
import * as model from './session';

/** What performing a line needs: the state, and a way to run a request as the caller (a handler's context is one). */
export interface ExecContext {
  server: PaneServer;
  dispatch<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>>;
}

/** Performs a command line of the pane's vocabulary: parse, announce, dispatch (no interception). */
export async function execDefault(ctx: ExecContext, pane: Pane, line: string, origin: string, by: string, fallback: 'error' | 'shell' = 'error') {
  const parsed = parseCommandLine(pane, line);
  if (!parsed.ok && parsed.unknownWord && fallback === 'shell') return runInErrorsPane(ctx, pane, line.trim(), origin, by);
  if (!parsed.ok) throw faults.badRequest(parsed.message, `pane ${pane.n}`);
  ctx.server.publish('pane/executed', { pane: pane.n, line: line.trim(), origin, by });
  await ctx.dispatch(parsed.request.method, parsed.request.params);
  return { pane: pane.n, done: true };
}

/** Single-quotes a word for sh. */
function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * acme's +Errors: a word that is not a command runs as a shell command in the
 * pane's cwd. Each session has one +Errors pane, a shell that is fed the command
 * lines, so outputs append one after another, as in acme, and stay readable.
 */
async function runInErrorsPane(ctx: ExecContext, pane: Pane, line: string, origin: string, by: string) {
  const { server } = ctx;
  const s = server.sessionOf(pane);
  let errors = server.panesOf(s).find((p) => p.attrs.errors === '1' && p.state === 'running');
  if (!errors) {
    const tiled = model.isTiled(s, pane.n);
    const spec = {
      name: '+Errors',
      signature: 'com.pane.errors',
      attrs: { errors: '1', remain: '1' },
      launch: { program: '/bin/sh', args: [], cwd: pane.cwd, env: { PS1: '' } },
    } satisfies PaneSpec;
    const ack = tiled
      ? await ctx.dispatch('pane/launch', { pane: pane.n, direction: 'vertical', ratio: 75, ...spec })
      : await ctx.dispatch('float/create', { session: s.id, ...spec });
    errors = server.pane(ack.pane);
    model.publish(server, model.focus(s, pane.n));
  }
  server.publish('pane/executed', { pane: pane.n, line, origin, by });
  server.terminal(errors).write(`cd -- ${shQuote(pane.cwd)} && ${line}\n`);
  return { pane: pane.n, done: true, output: `ran "${line}" in ${pane.cwd}; output in +Errors (pane ${errors.n})` };
}
