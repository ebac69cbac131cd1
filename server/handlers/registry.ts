// The one dispatch path: validate params with the method's schema, check the
// capability, run the family handler. Protocol clients, ctl writes and tag clicks
// all come through here, so every view gets the same checks and typed errors.
// One Dispatcher per server, built by startServer and handed to every connection.
import { PaneFault } from '../../kits/protocol/error';
import { AUTHORITY, PERSON_ONLY_REASON } from '../../kits/protocol/authority';
import { capabilityOf, isMethodName, methods, type MethodName } from '../../kits/protocol/index';
import { principalLabel } from '../../kits/protocol/principal';
import type { HandlerContext, HandlerFn, HandlerTable } from './types';

/** A zod issue as one line naming the field: "ratio: expected number, received string". */
export function describeIssues(method: string, issues: { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return `invalid params for ${method}`;
  const where = first.path.length ? first.path.map(String).join('.') : '(params)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `invalid params for ${method}: ${where}: ${first.message}${more}`;
}

/** Takes a request addressed to another host's pane (server/hosts/): its answer, or undefined to run it here. */
export type Forwarder = (method: MethodName, params: Record<string, unknown>, ctx: HandlerContext) => Promise<unknown> | undefined;

/**
 * The principal table's rule for one request (kits/protocol/authority.ts), on every
 * door alike: what is the person's alone is refused to an agent whatever its .access
 * says, a joined host causes nothing here, and a read-only client sees no mail.
 * Each refusal names the rule and the principal.
 */
export function refuseByPrincipal(method: Exclude<MethodName, 'hello'>, ctx: HandlerContext): void {
  const rule = AUTHORITY[method];
  const who = ctx.client.principal;
  const refuse = (why: string) => {
    const message = `refused: ${principalLabel(who)} may not call ${method}: ${why}`;
    // Logged once a spell per client and method (/pane/log, the daemon's log): a client that asks again and again is one line.
    if (ctx.client.noteRefusal?.(method)) ctx.server.publish('client/refused', { door: `${ctx.client.transport?.kind ?? 'a'} client ${ctx.client.name ?? '?'}`, reason: message });
    throw new PaneFault('denied', message, { reason: why, subject: method });
  };
  if (who.kind === 'agent' && rule.agent === 'never') refuse(`it ${PERSON_ONLY_REASON[method] ?? 'is the person’s alone'}, whatever an .access grants`);
  if (who.kind === 'host' && !rule.host) refuse('a joined host shows its own panes and causes nothing on this server');
  if (who.kind === 'grant' && !rule.guest) refuse(PERSON_ONLY_REASON[method] ? `it ${PERSON_ONLY_REASON[method]}: the person's alone` : who.mode === 'ro' ? 'a read-only grant sees screens and events' : 'a grant types into and runs the words of the panes it sees; it starts no program and changes nothing else');
  if (ctx.client.readOnly && !rule.readOnly) refuse(capabilityOf(method) === 'read' ? 'a read-only client sees screens and events, not mail or messages' : 'this client is read-only');
}

export class Dispatcher {
  private readonly table = new Map<string, HandlerFn<MethodName>>();
  /** Set by server/hosts/ when hosts are attached: `HOST:N` of a joined host goes over its link, checked as here first. */
  forward: Forwarder | undefined;

  /** Adds a family's handlers (the built-in families, then agents and awareness). */
  register(t: HandlerTable): this {
    for (const [name, fn] of Object.entries(t)) this.table.set(name, fn as HandlerFn<MethodName>);
    return this;
  }

  /** Runs one request; returns its result or throws a PaneFault. May return synchronously. */
  dispatch(method: string, rawParams: unknown, ctx: HandlerContext): unknown {
    if (!isMethodName(method) || method === 'hello') {
      throw new PaneFault('unknown-method', method === 'hello' ? 'hello was already done on this connection' : `unknown method "${method}"`, { subject: method });
    }
    const cap = capabilityOf(method);
    if (!ctx.client.capabilities.has(cap)) {
      throw new PaneFault('denied', `denied: ${method} needs the ${cap} capability, which this client was not granted`, { reason: `needs ${cap}`, subject: method });
    }
    refuseByPrincipal(method, ctx);
    const fn = this.table.get(method);
    if (!fn) throw new PaneFault('unknown-method', `method "${method}" has no handler on this server`, { subject: method });
    const parsed = methods[method].params.safeParse(rawParams ?? {});
    if (!parsed.success) throw new PaneFault('bad-request', describeIssues(method, parsed.error.issues), { subject: method });
    const remote = this.forward?.(method, parsed.data as Record<string, unknown>, ctx);
    if (remote !== undefined) return remote;
    ctx.client.checkAccess?.(method, parsed.data);
    return fn(parsed.data as never, ctx);
  }
}
