// A command line of a pane's vocabulary performed by default: parsed, announced
// (pane/executed) and run as the request it names, through the dispatcher it is
// handed; with fallback 'shell', a word that is no command runs in the session's
// +Errors pane (acme). pane/exec (handlers/pane.ts) and the write-back of a pane's
// event file (namespace/paneFiles.ts) both perform lines here. A line runs as the
// principal whose words it is: the person's in the person's +Errors shell, an
// agent's in its own (a pane it makes, so inside its sandbox, and only if its
// .access lets it make panes), a host's nowhere. Which pane is whose +Errors is the
// server's own record, never a pane's attrs, which an agent can set.
import { faults, PaneFault } from '../../kits/protocol/error';
import type { MethodName, ParamsIn, Result } from '../../kits/protocol/index';
import type { Pane } from '../../kits/protocol/model';
import type { PaneAck, PaneSpec } from '../../kits/protocol/pane';
import type { PaneServer } from '../paneServer';
import { principalKey, principalLabel, type Principal } from '../../kits/protocol/principal';
import { parseCommandLine } from './commandLine';
import * as model from './session';
import { movesSessionFocus } from './session/contexts';

/** What performing a line needs: the state, and a way to run a request as the caller (a handler's context is one). */
export interface ExecContext {
  server: PaneServer;
  /** Whose words the line is: its effects run with that principal's authority. */
  client: { principal: Principal };
  dispatch<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>>;
}

/** Performs a command line of the pane's vocabulary: parse, announce, dispatch (no interception). */
export async function execDefault(ctx: ExecContext, pane: Pane, line: string, origin: string, by: string, fallback: 'error' | 'shell' = 'error') {
  const parsed = parseCommandLine(pane, line);
  if (!parsed.ok && parsed.unknownWord && fallback === 'shell') return runInErrorsPane(ctx, pane, line.trim(), origin, by);
  // A word that cannot run now failed; a line written wrong is the caller's (a usage error at the CLI).
  if (!parsed.ok) throw parsed.cannot ? faults.failed(parsed.message) : faults.badRequest(parsed.message, `pane ${pane.n}`);
  ctx.server.publish('pane/executed', { pane: pane.n, line: line.trim(), origin, by });
  const had = new Set(ctx.server.panes.keys());
  const r: unknown = await ctx.dispatch(parsed.request.method, parsed.request.params);
  const made = (r as { pane?: unknown } | null)?.pane;
  return { pane: pane.n, done: true, ...openedOf(ctx.server, typeof made === 'number' && !had.has(made) ? made : undefined) };
}

/**
 * The pane a line opened, named as pane/split names a new one: read from this server's
 * own panes, so a word answered by a host (a stand-in's) never names a pane here.
 */
function openedOf(server: PaneServer, n: number | undefined): { opened?: PaneAck } {
  const p = n === undefined ? undefined : server.panes.get(n);
  return p ? { opened: { session: p.session, pane: p.n, id: server.address(p.n) } } : {};
}

const refused = (reason: string) => new PaneFault('denied', `refused: ${reason}`, { reason });

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
  const who = ctx.client.principal;
  if (who.kind === 'host') throw refused(`${principalLabel(who)} may not run a line in a shell here (a host’s words run on that host)`);
  if (who.kind === 'grant') throw refused(`${principalLabel(who)} may not run a line in a shell here (a grant runs the words panes have, never a line of its own)`);
  const s = server.sessionOf(pane);
  const mine = server.errorsPanes;
  const key = `${s.id}\u0000${principalKey(who)}`;
  const known = mine.get(key);
  let errors = known === undefined ? undefined : server.panes.get(known);
  if (errors && (errors.state !== 'running' || errors.session !== s.id)) errors = undefined;
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
    // An agent's launch is walled by the agent service (owner = the agent, its sandbox): check it took.
    if (who.kind === 'agent' && errors.owner !== who.name) throw refused(`${principalLabel(who)} may not run a line in a pane that is not its own`);
    mine.set(key, errors.n);
    // The launch took the focus from the pane clicked (the person's): it goes back. An agent's took none (ownContext).
    if (movesSessionFocus(who)) model.publish(server, model.focus(s, pane.n));
  }
  server.publish('pane/executed', { pane: pane.n, line, origin, by });
  server.terminal(errors).write(`cd -- ${shQuote(pane.cwd)} && ${line}\n`);
  return { pane: pane.n, done: true, output: `ran "${line}" in ${pane.cwd}; output in +Errors (pane ${errors.n})` };
}
