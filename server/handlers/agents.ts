// Agent handlers: accounts, access, plan, mail, hooks, write and launch. Who is
// calling matters here: a connection whose hello token named an agent acts as
// that agent, may read only its own mail and set only its own .plan.
import path from 'node:path';
import { atPrompt } from '../../kits/protocol/agent';
import { faults, PaneFault } from '../../kits/protocol/error';
import type { Pane, Session, SplitDirection } from '../../kits/protocol/model';
import { summarize } from '../agents/access';
import { checkPane, deny } from '../agents/accessCheck';
import { handleHook } from '../agents/hooks';
import { actingAgent, agentOfUser } from '../agents/index';
import { deliver, readMail, unreadCount, type OutgoingMail } from '../agents/mailbox';
import { PathRefused } from '../../kits/node/safeFile';
import type { AgentService } from '../agents/service';
import { shimDir } from '../agents/panes';
import { removeWorktree } from '../agents/worktree';
import { MAX_REVIEW_FILES, reviewBase, reviewDiff, reviewFiles, reviewPath, reviewVerdict } from '../agents/review';
import type { PaneRef } from '../../kits/protocol/ids';
import { pendingLines } from '../agents/sandbox';
import { findApp } from '../config/appFiles';
import { setAttrs } from '../model/paneOps';
import { rects } from '../../kits/layout/tree';
import { isNoRoom } from '../model/session/index';
import type { HandlerContext, HandlerTable } from './types';
import { MAX_DELIVERED_LINE_BYTES, MAX_DELIVERY_QUEUE, MAX_DELIVERY_QUEUE_BYTES } from '../agents/limits';
import { editorCommand } from '../plumb/service';
import { principalLabel } from '../../kits/protocol/principal';

function svcOf(ctx: HandlerContext): AgentService {
  const s = ctx.services.agents;
  if (!s) throw faults.failed('agents are not enabled on this server');
  return s;
}

function need(svc: AgentService, name: string): void {
  if (!svc.known(name)) throw new PaneFault('failed', `no agent named ${name} (known: ${svc.names().join(', ') || 'none'}; add one with \`pane agent add ${name}\`)`, { reason: 'no such agent', subject: name });
}

function needAccount(svc: AgentService, name: string): void {
  need(svc, name);
  if (!svc.store.exists(name)) throw new PaneFault('failed', `${name} is known only from hooks and has no account (no mailbox or .plan); \`pane agent add ${name}\` gives it one`, { reason: 'no account', subject: name });
}

/** Files the mail; a link or FIFO planted in the Maildir is refused (logged, and said to the sender), never written through. */
function deliverOrRefuse(svc: AgentService, to: string, dir: string, m: OutgoingMail): string {
  try {
    return deliver(dir, m);
  } catch (e) {
    if (!(e instanceof PathRefused)) throw e;
    svc.refused(to, e, 'agent/mail');
    throw new PaneFault('failed', `mail to ${to} not delivered: ${e.message}`, { reason: 'refused path', subject: e.file });
  }
}

/** The agent this connection acts as, or null for the human. */
const caller = (ctx: HandlerContext) => agentOfUser(ctx.services, ctx.client.user);

/**
 * Whether this connection may consume (mark read) `name`'s mail or messages: the agent
 * itself or a person, through a client that holds the write capability. A read-only
 * client (the agent's own included) only looks, so what it reads is still handed over
 * to the agent at its next turn.
 */
export function mayConsume(ctx: HandlerContext, name: string): boolean {
  const me = caller(ctx);
  return ctx.client.capabilities.has('write') && (me === name || me === null);
}

/** How an agent pane's app answers a conversation: through `pane write`, or only in its output. */
function converseOf(ctx: HandlerContext, p: Pane | undefined): 'write' | 'output' {
  const app = p?.attrs.app ? findApp(ctx.services.config.apps, p.attrs.app) : undefined;
  return app?.agent?.converse ?? 'write';
}

/**
 * Where a new agent pane goes when none is named: beside or below the roomiest
 * tiled pane of the session, along its longer side (cells are about twice as
 * tall as wide) — agents launched one after another tile evenly instead of
 * halving the same corner again and again.
 */
function roomiest(ctx: HandlerContext, session: string | undefined, direction: SplitDirection | undefined): { pane?: number; session?: string; direction?: SplitDirection } {
  const base = session !== undefined ? { session } : {};
  let s: Session;
  try {
    s = ctx.server.session(session);
  } catch {
    return base; // pane/split names the problem
  }
  if (s.zoomed !== null) return base;
  let best: { pane: number; w: number; h: number } | null = null;
  for (const [pane, r] of rects(s.layout, s.viewport)) if (!best || r.w * r.h > best.w * best.h) best = { pane, w: r.w, h: r.h };
  if (!best) return base;
  return { ...base, pane: best.pane, direction: direction ?? (best.w > best.h * 2 ? 'horizontal' : 'vertical') };
}

/** The split a write or peers view takes beside its pane: the pane keeps 65%. */
const PEERS_RATIO = 65;
/** The peers table's columns (name, state, since, topics, mail) read without wrapping from here on. */
const PEERS_MIN_COLS = 72;
/** A floating peers view when no pane is wide enough to split: the table's width, a screenful of agents. */
const PEERS_FLOAT = { cols: 110, rows: 28 };

/** The line `--deliver` types for a mail: the whole of it, or its first MAX_DELIVERED_LINE_BYTES and where the rest is. */
function deliveredLine(from: string, subject: string, body: string): string {
  const line = `[mail from ${from}]${subject ? ` ${subject}:` : ''} ${body.trim()}`;
  if (Buffer.byteLength(line) <= MAX_DELIVERED_LINE_BYTES) return line;
  const cut = Buffer.from(line).subarray(0, MAX_DELIVERED_LINE_BYTES).toString('utf8').replace(/\uFFFD+$/, '');
  return `${cut}… (cut at ${MAX_DELIVERED_LINE_BYTES} bytes: the whole mail is in its Maildir, pane mail --read)`;
}

/** The worktree of an agent pane a review reads or changes, its pane checked for the caller (an agent: by its .access). */
function reviewed(ctx: HandlerContext, ref: PaneRef, method: string, mode: 'read' | 'write') {
  const svc = svcOf(ctx);
  const pane = ctx.server.pane(ref);
  const pr = svc.panes.get(pane.n);
  if (!pr?.worktree) throw faults.failed(`pane ${pane.n} has no worktree of its own to review (an agent launched with --worktree has one)`);
  const me = caller(ctx);
  if (me !== null) checkPane(svc, me, method, pane, mode);
  return { w: pr.worktree, agent: pr.agent, pane };
}

export const agentHandlers: HandlerTable = {
  'agent/list': (_p, ctx) => ({ agents: svcOf(ctx).list() }),

  'agent/get': (p, ctx) => {
    const svc = svcOf(ctx);
    need(svc, p.name);
    return svc.info(p.name);
  },

  'agent/add': (p, ctx) => {
    const svc = svcOf(ctx);
    if (p.name === ctx.server.user) throw faults.failed(`${p.name} is the human user's name; pick another name for the agent`);
    svc.store.add(p.name, { app: p.app, project: p.project, access: p.access, plan: p.plan });
    svc.changed(p.name);
    return svc.info(p.name);
  },

  'agent/remove': (p, ctx) => {
    const svc = svcOf(ctx);
    const r = svc.store.remove(p.name, p.purge);
    svc.forget(p.name);
    return { name: p.name, home: r.home, kept: r.kept };
  },

  'agent/access': (p, ctx) => {
    const svc = svcOf(ctx);
    needAccount(svc, p.name);
    const { access, errors } = svc.access(p.name);
    return { name: p.name, file: path.join(svc.store.home(p.name), '.access'), access, errors, summary: [...summarize(access, errors), ...pendingLines(svc, p.name)] };
  },

  'agent/plan': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actingAgent(ctx.services, ctx.client.user, p.name, { method: 'agent/plan', act: 'set a .plan', field: 'name' });
    needAccount(svc, name);
    svc.store.writePlan(name, p.text);
    svc.changed(name);
    return { name, plan: p.text };
  },

  'agent/mail': (p, ctx) => {
    const svc = svcOf(ctx);
    needAccount(svc, p.to);
    const from = ctx.client.user;
    const line = deliveredLine(from, p.subject, p.body);
    if (p.deliver) {
      const queued = svc.runtime(p.to).typeWhenWaiting;
      if (queued.length >= MAX_DELIVERY_QUEUE) throw new PaneFault('busy', `${p.to} has ${MAX_DELIVERY_QUEUE} mails waiting to be typed already; send without --deliver, or wait until it reads them`, { subject: p.to });
      const bytes = queued.reduce((n, q) => n + Buffer.byteLength(q.line), 0);
      if (bytes + Buffer.byteLength(line) > MAX_DELIVERY_QUEUE_BYTES) throw new PaneFault('busy', `${p.to} has ${bytes} bytes of mail waiting to be typed already (MAX_DELIVERY_QUEUE_BYTES, ${MAX_DELIVERY_QUEUE_BYTES}); send without --deliver, or wait until it reads them`, { subject: p.to });
    }
    const dir = path.join(svc.store.home(p.to), 'Maildir');
    const me = caller(ctx);
    const target = p.deliver ? svc.inputPane(p.to) : undefined;
    // Typing into an agent's pane is writing to it: the sender needs panes.write on it (checked before anything is filed).
    if (me !== null && target) checkPane(svc, me, 'agent/mail', target, 'write');
    const id = deliverOrRefuse(svc, p.to, dir, { from, to: p.to, subject: p.subject, body: p.body });
    let typed: 'no' | 'now' | 'queued' = 'no';
    if (p.deliver) {
      const pane = target;
      // At its prompt it is typed now (once the pane's output is quiet: flushTyped), else when it next is.
      svc.runtime(p.to).typeWhenWaiting.push({ line, from: me });
      if (pane && atPrompt(svc.runtime(p.to).state)) {
        svc.flushTyped(p.to);
        typed = 'now';
      } else typed = 'queued';
    }
    const unread = unreadCount(dir, { refused: (e) => svc.refused(p.to, e, 'agent/mail') });
    ctx.server.publish('agent/mailed', { to: p.to, from, subject: p.subject, id, unread });
    svc.changed(p.to);
    return { id, to: p.to, unread, typed };
  },

  'agent/inbox': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actingAgent(ctx.services, ctx.client.user, p.name, { method: 'agent/inbox', act: 'read mail', field: 'name' });
    needAccount(svc, name);
    // Reading mail as read hands it over: only the agent itself, or a person whose client may write, consumes it.
    const markRead = p.markRead && mayConsume(ctx, name);
    const messages = readMail(path.join(svc.store.home(name), 'Maildir'), { all: p.all, markSeen: markRead, refused: (e) => svc.refused(name, e, 'agent/inbox') });
    if (markRead && messages.some((m) => !m.seen)) {
      // Copies of awareness messages, read here, are handed over: no second telling at the next turn.
      const refs = messages.filter((m) => !m.seen && m.ref !== undefined).map((m) => m.ref!);
      if (refs.length) for (const f of svc.copiesRead) f(name, refs);
      svc.changed(name);
    }
    return { name, messages };
  },

  'agent/hook': (p, ctx) => handleHook(svcOf(ctx), p, caller(ctx)),

  'agent/write': (p, ctx) => {
    const svc = svcOf(ctx);
    const me = caller(ctx);
    const from = ctx.client.user;
    const at = Date.now();
    if (me !== null && (p.to === undefined || p.to === svc.human)) {
      // An agent answering the human: the conversation pane shows it.
      const pane = svc.inputPane(me)?.n ?? null;
      ctx.server.publish('agent/said', { from: me, to: svc.human, text: p.text, at, pane });
      return { from: me, to: svc.human, pane };
    }
    if (p.to === undefined) throw faults.badRequest('name the agent to write to', 'to');
    need(svc, p.to);
    const pane = svc.inputPane(p.to);
    if (!pane) throw faults.failed(`${p.to} has no running pane to write to; mail it instead (pane mail ${p.to})`);
    if (me !== null) checkPane(svc, me, 'agent/write', pane, 'write');
    svc.typeInto(pane, `[from ${from}] ${p.text}`, principalLabel(ctx.client.principal));
    ctx.server.publish('agent/said', { from, to: p.to, text: p.text, at, pane: pane.n });
    return { from, to: p.to, pane: pane.n };
  },

  'agent/launch': async (p, ctx) => {
    const svc = svcOf(ctx);
    // `pane agent run NAME -- PROGRAM ARGS`: any program as the agent (a shell too), no app file;
    // with --app as well, that program with the app's integration (its hooks, questions, resume,
    // hosts and environment): another build of the same CLI, say. Never the app silently dropped.
    const given = p.program ? { program: p.program[0]!, args: p.program.slice(1), ...(p.cwd !== undefined ? { cwd: p.cwd } : {}) } : undefined;
    const appId = given ? (p.app ?? '') : (p.app ?? (p.name && svc.store.exists(p.name) ? svc.store.read(p.name, '.app').trim() : ''));
    const app = given && !p.app ? undefined : ctx.services.config.findApp(appId || 'demo-agent');
    const list = ctx.services.config.apps;
    if ((!given || p.app) && !app) throw new PaneFault('failed', `no app "${appId || 'demo-agent'}" (known: ${list.apps.map((a) => a.id).join(', ') || 'none'})`, { reason: 'no such app', subject: appId });
    const launch = given ? { ...given, ...(app?.launch?.env ? { env: { ...app.launch.env } } : {}) } : app?.launch ? { ...app.launch, ...(p.cwd !== undefined ? { cwd: p.cwd } : {}) } : undefined;
    const target = p.pane !== undefined ? { pane: p.pane } : roomiest(ctx, p.session, p.direction);
    const attrs: Record<string, string> = { ...(app?.attrs ?? {}), ...(app ? { app: app.id } : {}), ...(p.name ? { agent: p.name } : {}), ...(p.isolation ? { 'agent.isolation': p.isolation } : {}) };
    const ack = await ctx.dispatch(
      'pane/split',
      { direction: p.direction ?? 'horizontal', ...target, ...(launch ? { launch } : {}), kind: 'agent', attrs },
    );
    const agent = svc.panes.get(ack.pane)?.agent ?? ctx.server.panes.get(ack.pane)?.attrs.agent ?? '';
    return { ...ack, agent };
  },

  'agent/open': async (p, ctx) => {
    const svc = svcOf(ctx);
    let anchor = p.pane !== undefined ? ctx.server.pane(p.pane) : undefined;
    const name = p.name ?? (anchor ? (svc.panes.get(anchor.n)?.agent ?? svc.isAgentPane(anchor)) : undefined);
    if (p.view !== 'peers') {
      if (name === undefined) throw faults.badRequest(`${p.view}: which agent? give name, or the pane of an agent`, 'name');
      need(svc, name);
      anchor ??= svc.inputPane(name);
    }
    const bin = shimDir(svc);
    if (!bin) throw faults.failed('cannot find the pane command (dist/pane.cjs) to run the view; run `npm run build`');
    const who = name ?? '';
    const args: Record<typeof p.view, string[]> = {
      finger: ['finger', '--hold', who],
      mail: ['mail', who],
      // Agents that do not answer through `pane write` (converse: output) are heard through their output.
      write: ['write', '--here', ...(converseOf(ctx, anchor) === 'output' ? ['--output'] : []), who],
      plan: ['plan', '--edit', who],
      access: ['access', '--hold', who],
      peers: ['peers', '--here'],
    };
    const spec = {
      // PANE_VIEW tells the view it may close its own pane when done.
      launch: { program: path.join(bin, 'pane'), args: args[p.view], env: { PANE_VIEW: p.view }, ...(anchor ? { cwd: anchor.cwd } : {}) },
      name: p.view === 'peers' ? 'peers' : `${p.view} ${who}`,
      signature: `com.pane.${p.view}`,
      attrs: { view: p.view, ...(name ? { 'view.agent': name } : {}) },
    };
    if (p.view === 'peers') {
      // Beside a pane wide enough to leave the table its columns; else floating, sized for it.
      const session = anchor ? ctx.server.sessionOf(anchor) : ctx.server.session();
      const beside = anchor ?? (session.focused !== null ? ctx.server.panes.get(session.focused) : undefined);
      if (beside && Math.floor((beside.cols * (100 - PEERS_RATIO)) / 100) < PEERS_MIN_COLS) {
        const w = Math.min(PEERS_FLOAT.cols, session.viewport.cols - 2);
        const h = Math.min(PEERS_FLOAT.rows, session.viewport.rows - 2);
        const r = await ctx.dispatch('float/create', { session: session.id, w, h, x: Math.max(0, Math.floor((session.viewport.cols - w) / 2)), y: Math.max(0, Math.floor((session.viewport.rows - h) / 2)), ...spec });
        return { session: r.session, pane: r.pane, id: r.id };
      }
    }
    if (p.view === 'write' || p.view === 'peers') {
      const where = anchor ? { pane: anchor.n } : {};
      try {
        return await ctx.dispatch('pane/split', { ...where, direction: p.view === 'write' ? 'vertical' : 'horizontal', ratio: PEERS_RATIO, ...spec });
      } catch (e) {
        // Beside a pane too small to split, the view floats above it (below) rather than not opening.
        if (!isNoRoom(e)) throw e;
      }
    }
    const r = await ctx.dispatch('float/create', { ...(anchor ? { session: anchor.session } : {}), ...spec });
    return { session: r.session, pane: r.pane, id: r.id };
  },

  'agent/diff': (p, ctx) => {
    const { w } = reviewed(ctx, p.pane, 'agent/diff', 'read');
    const base = reviewBase(w);
    return { worktree: w.path, branch: w.branch, base, files: reviewFiles(w, base).slice(0, MAX_REVIEW_FILES), diff: reviewDiff(w, base) };
  },

  'agent/review': async (p, ctx) => {
    const { w, agent, pane } = reviewed(ctx, p.pane, 'agent/review', 'write');
    if (p.verdict === 'open') {
      // One changed file in the editor, launched as the caller (its .access decides pane/launch): never a path outside the worktree, never an option.
      if (p.file === undefined) throw faults.badRequest('open needs a file: one the review lists', 'file');
      const rel = reviewPath(w, p.file);
      if (!reviewFiles(w, reviewBase(w)).some((f) => f.path === rel && !f.status.startsWith('D'))) throw faults.badRequest(`${p.file} is not a changed file of the worktree (the review lists what can be opened)`, p.file);
      const [program, ...flags] = editorCommand(ctx.server.env);
      const r = await ctx.dispatch('pane/launch', { pane: pane.n, direction: 'horizontal', launch: { program, args: [...flags, path.join(w.path, rel)], cwd: w.path }, name: path.basename(rel) });
      return { done: `opened ${rel} with ${program} in pane ${r.pane}` };
    }
    const done = reviewVerdict(w, { verdict: p.verdict, file: p.file, message: p.message, agent, person: ctx.server.user });
    svcOf(ctx).store.log(agent, `review of ${w.branch} in pane ${pane.n}: ${done}`);
    svcOf(ctx).changed(agent);
    return { done };
  },

  'agent/worktree-remove': (p, ctx) => {
    const svc = svcOf(ctx);
    const pane = ctx.server.pane(p.pane);
    const pr = svc.panes.get(pane.n);
    if (!pr?.worktree) throw faults.failed(`pane ${pane.n} has no worktree of its own`);
    const me = caller(ctx);
    if (me !== null) checkPane(svc, me, 'agent/worktree-remove', pane, 'write');
    const w = pr.worktree;
    removeWorktree(w, p.force);
    pr.worktree = null;
    setAttrs(ctx.server, pane, { 'agent.worktree': null, 'agent.branch': null, 'agent.repo': null });
    svc.store.log(pr.agent, `worktree ${w.path} removed on request (branch ${w.branch} kept)`);
    svc.changed(pr.agent);
    return { path: w.path, branch: w.branch };
  },
};
