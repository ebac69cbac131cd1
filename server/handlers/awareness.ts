// Awareness handlers: prompts and tool use, claims, messages, predictions,
// handoff and delegation. An agent's own connection speaks only for itself; a
// person names the agent (and holds claims under their own name).
import { faults } from '../../kits/protocol/error';
import type { AgentView, Claim } from '../../kits/protocol/awareness';
import { actingAgent, agentOfUser } from '../agents/index';
import { mayConsume } from './agents';
import { claimWarning } from '../awareness/context';
import type { AwarenessService } from '../awareness/service';
import type { HandlerContext, HandlerTable } from './types';

function svcOf(ctx: HandlerContext): AwarenessService {
  const s = ctx.services.awareness;
  if (!s) throw faults.failed('awareness is not enabled on this server');
  return s;
}

/** The agent a request speaks for (the one rule, server/agents/identity.ts). */
const actor = (ctx: HandlerContext, asked: string | undefined, act: string, method: string) =>
  actingAgent(ctx.services, ctx.client.user, asked, { method, act, field: 'agent' });

/** Claims and messages: the calling agent, else the named agent, else the person. */
const holder = (ctx: HandlerContext, asked: string | undefined) => agentOfUser(ctx.services, ctx.client.user) ?? asked ?? ctx.client.user;

function known(svc: AwarenessService, name: string) {
  const a = svc.aw.agent(name);
  if (!a) throw faults.failed(`awareness knows no agent named ${name} (known: ${svc.aw.all().map((x) => x.name).join(', ') || 'none'})`);
  return a;
}

function labels(svc: AwarenessService, claims: readonly Claim[]): Record<string, string> {
  return Object.fromEntries(claims.map((c) => [c.holder, svc.aw.label(c.holder)]));
}

export const awarenessHandlers: HandlerTable = {
  'awareness/prompt': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actor(ctx, p.agent, 'record prompts', 'awareness/prompt');
    const record = () => svc.aw.prompt(name, p.text, svc.whereabouts(name, undefined, p.cwd));
    // Its last prompt in finger and on the board too, as UserPromptSubmit's hook sets it, in one agent/changed with the topics it moves.
    const agents = ctx.services.agents;
    const r = agents?.known(name) ? agents.notePrompt(name, p.text, record) : record();
    return { agent: svc.aw.view(r.agent), topics: r.topics, predicted: r.pass.created };
  },

  'awareness/tool': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actor(ctx, p.agent, 'record tool use', 'awareness/tool');
    const where = svc.whereabouts(name, undefined, p.cwd);
    const base = p.cwd ?? svc.aw.agent(name)?.cwd ?? where.cwd ?? '/';
    const files = p.files.map((f) => svc.aw.resolvePath(name, f, 'file', base).path);
    const r = svc.aw.tool(name, { files, write: p.write }, where);
    const warning = files
      .map((f) => claimWarning(f, svc.aw.claimsOn(f, name), svc.aw.label))
      .filter(Boolean)
      .join('\n');
    return { agent: name, collisions: r.collisions, claimed: r.claimed, warning };
  },

  'awareness/agents': (p, ctx) => {
    const svc = svcOf(ctx);
    const list = p.all ? svc.aw.all() : svc.aw.live();
    return { agents: list.map((a): AgentView => svc.aw.view(a)) };
  },

  'awareness/claim': (p, ctx) => {
    const svc = svcOf(ctx);
    const who = holder(ctx, p.agent);
    const r = svc.aw.claim({ holder: who, path: p.resource, kind: p.kind, scope: p.scope, reason: p.reason, ttlMs: p.ttlSeconds === undefined ? undefined : p.ttlSeconds * 1000, contest: p.contest, cwd: p.cwd });
    const all = r.status === 'granted' ? [r.claim] : r.conflicts;
    return {
      status: r.status,
      claim: r.status === 'granted' ? r.claim : null,
      conflicts: r.status === 'conflict' ? r.conflicts : [],
      contested: r.status === 'conflict' ? r.contested : [],
      labels: labels(svc, all),
      contestTimeoutMs: svc.aw.cfg.contestTimeoutMs,
    };
  },

  'awareness/release': (p, ctx) => {
    const svc = svcOf(ctx);
    const who = holder(ctx, p.agent);
    // Forcing another's claim is for a person clearing up after an agent; an agent contests instead.
    if (p.force && agentOfUser(ctx.services, ctx.client.user) !== null) throw faults.denied('an agent may not force-release another’s claim; contest it (claim with contest) instead');
    return { released: svc.aw.release(who, p.resource, { ...(p.kind ? { kind: p.kind } : {}), ...(p.cwd ? { cwd: p.cwd } : {}), force: p.force }) };
  },

  'awareness/claims': (p, ctx) => {
    const svc = svcOf(ctx);
    const claims = [...svc.aw.claims()];
    return { claims, labels: labels(svc, claims), log: p.log ? [...svc.aw.claimLog()] : [] };
  },

  'awareness/check': (p, ctx) => {
    const svc = svcOf(ctx);
    const who = holder(ctx, p.agent);
    const path = svc.aw.resolvePath(who, p.resource, 'file', p.cwd).path;
    const claims = svc.aw.claimsOn(path, who);
    return { path, claims, warning: claimWarning(path, claims, svc.aw.label) };
  },

  'awareness/message': (p, ctx) => {
    const svc = svcOf(ctx);
    const from = holder(ctx, p.agent);
    return svc.aw.message({ from, target: p.to, type: p.type, priority: p.priority, text: p.text });
  },

  'awareness/inbox': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actor(ctx, p.agent, 'read messages', 'awareness/inbox');
    // A read-only client looks without handing the messages over (they still reach the agent).
    return { agent: name, messages: p.markRead && mayConsume(ctx, name) ? svc.aw.deliver(name) : svc.aw.pending(name) };
  },

  'awareness/messages': (p, ctx) => ({ messages: svcOf(ctx).aw.messageLog().slice(-p.limit) }),

  'awareness/predictions': (p, ctx) => {
    const st = svcOf(ctx).aw.predictionState();
    return { active: st.active, resolved: p.resolved > 0 ? st.resolved.slice(-p.resolved) : [], accuracy: st.accuracy, threshold: st.threshold };
  },

  'awareness/notices': (_p, ctx) => {
    const { presenter } = svcOf(ctx);
    presenter.flush(); // what this turn's passes changed, before it is read
    return { notices: presenter.notices.all() };
  },

  'awareness/resolve': (p, ctx) => {
    const r = svcOf(ctx).aw.resolve(p.id, p.outcome);
    if (!r) throw faults.failed(`no open prediction ${p.id} (see pane awareness predictions)`);
    return r;
  },

  'awareness/handoff': (p, ctx) => {
    const svc = svcOf(ctx);
    const me = agentOfUser(ctx.services, ctx.client.user);
    if (me !== null && me !== p.from) throw faults.denied(`agent ${me} may hand off only its own work, not ${p.from}’s`);
    known(svc, p.from);
    return svc.aw.handoff(p.from, p.to, p.send)!;
  },

  'awareness/delegate': (p, ctx) => {
    const svc = svcOf(ctx);
    const r = svc.aw.delegate(p.task, p.max);
    return { topics: r.topics, suggestions: r.suggestions.map((s) => ({ ...s, label: svc.aw.label(s.agent) })) };
  },

  'awareness/context': (p, ctx) => {
    const svc = svcOf(ctx);
    const name = actor(ctx, p.agent, 'read the context', 'awareness/context');
    return { agent: name, text: svc.aw.contextFor(name, false) };
  },
};
