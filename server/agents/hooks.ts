// `agent/hook`: a hook event from an agent CLI (Claude Code's JSON) finds its
// agent — by token, $PANE_AGENT, $PANE_ID, a session seen before, or as a new
// hook-only agent — moves its state, and answers with what contributors add
// (its new mail now; awareness's context and permission decisions later).
import path from 'node:path';
import type { AgentState } from '../../kits/protocol/agent';
import { AgentNameSchema } from '../../kits/protocol/agent';
import type { PaneRef } from '../../kits/protocol/ids';
import { checkPane } from './accessCheck';
import { answer, collect, type HookContribution, type HookEventInfo } from './hookAnswer';
import { readMail } from './mailbox';
import { setLastPrompt, type AgentService } from './service';
import { hookTransition } from './status';
import { MAX_HOOK_ONLY_AGENTS, MAX_HOOK_SESSIONS, MAX_HOOK_SESSIONS_PER_AGENT, pruneOldest } from './limits';
import { PaneFault } from '../../kits/protocol/error';
import type { HookDialect } from '../../kits/protocol/agent';
import { findApp } from '../config/appFiles';
import { toCliAnswer, toPaneInput } from './dialect';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export interface HookParams {
  input: Record<string, unknown>;
  pane?: PaneRef | undefined;
  agent?: string | undefined;
  /** The app whose hook dialect `input` is in (`pane hook --app NAME`); none: Claude Code's. */
  app?: string | undefined;
}

/** The hook dialect app `id`'s file names, or null (no such app, or one that speaks Claude Code's). */
export function dialectOf(svc: AgentService, id: string | undefined): HookDialect | null {
  if (id === undefined) return null;
  try {
    const hooks = findApp(svc.deps.config().apps, id)?.agent?.hooks;
    return typeof hooks === 'object' ? hooks : null;
  } catch {
    return null;
  }
}

/** A word fit for an agent's name: lower case, runs of anything else one dash, none at the ends. */
const nameWord = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');

/**
 * A name for an agent known only from hooks: <app>-<project dir>, made unique. The app is
 * the one whose dialect the hook speaks (`pane hook --app gemini`), else Claude Code's: a
 * Gemini CLI run by hand had been listed as claude-<dir>.
 */
function hookOnlyName(svc: AgentService, cwd: string, app: string | undefined): string {
  const prefix = (app !== undefined && nameWord(app).replace(/^[^a-z]+/, '').slice(0, 16).replace(/-+$/, '')) || 'claude';
  const base = `${prefix}-${nameWord(path.basename(cwd || 'session'))}`.slice(0, 28).replace(/-+$/, '');
  const valid = AgentNameSchema.safeParse(base).success ? base : AgentNameSchema.safeParse(prefix).success ? prefix : 'claude';
  const busy = (n: string) => svc.store.exists(n) || [...(svc.runtimes.get(n)?.sessions.values() ?? [])].some((s) => s.state !== 'exited');
  if (!busy(valid)) return valid;
  for (let i = 2; ; i++) if (!busy(`${valid}-${i}`)) return `${valid}-${i}`;
}

function resolve(svc: AgentService, p: HookParams, caller: string | null): { name: string; pane: number | null } {
  const sessionId = str(p.input.session_id);
  let pane: number | null = null;
  if (p.pane !== undefined) {
    try {
      pane = svc.server.pane(p.pane).n;
    } catch {
      pane = null; // a pane id from another server or a closed pane: report without it
    }
  }
  const runtime = pane === null ? undefined : svc.panes.get(pane);
  const paneAgent = runtime?.agent;
  const known = sessionId ? svc.hookSessions.get(sessionId) : undefined;
  const asked = p.agent !== undefined && p.agent !== svc.human && AgentNameSchema.safeParse(p.agent).success ? p.agent : undefined;
  const name = caller ?? asked ?? paneAgent ?? known ?? hookOnlyName(svc, str(p.input.cwd), p.app);
  roomForHookOnly(svc, name);
  // An agent CLI started by hand in an ordinary pane: that pane is its pane while its session lasts.
  // Adopting a pane makes it the agent's own (`self`): an agent's hook may adopt only a pane it may write.
  if (pane !== null && runtime === undefined && str(p.input.hook_event_name) !== 'SessionEnd') {
    if (caller !== null) checkPane(svc, caller, 'agent/hook', svc.server.pane(pane), 'write');
    svc.adoptPane(pane, name);
  }
  if (pane !== null && svc.panes.get(pane)?.agent !== name) pane = null;
  if (pane === null && sessionId) pane = svc.runtimes.get(name)?.sessions.get(sessionId)?.pane ?? null;
  return { name, pane };
}

/** The agent's own contribution: new mail, handed over as context at its next turn. */
function mailContext(svc: AgentService, ev: HookEventInfo): HookContribution | undefined {
  if (ev.event !== 'SessionStart' && ev.event !== 'UserPromptSubmit') return undefined;
  if (!svc.store.exists(ev.agent)) return undefined;
  const all = readMail(path.join(svc.store.home(ev.agent), 'Maildir'), { markSeen: true, refused: (e) => svc.refused(ev.agent, e, 'agent/hook') });
  if (all.length === 0) return undefined;
  svc.changed(ev.agent);
  // Copies of awareness messages: awareness hands those over in its own part of the context.
  const mail = all.filter((m) => m.ref === undefined);
  if (mail.length === 0) return undefined;
  const items = mail.map((m) => `From ${m.from}${m.subject ? ` — ${m.subject}` : ''}:\n${m.body.trim()}`);
  return { additionalContext: `You have ${mail.length} new message${mail.length > 1 ? 's' : ''} in your pane mailbox:\n\n${items.join('\n\n')}` };
}

/** At a session's start, tell the agent who it is in pane and how the human talks to it. */
function whoAmI(svc: AgentService, ev: HookEventInfo): HookContribution | undefined {
  if (ev.event !== 'SessionStart') return undefined;
  const p = ev.pane === null ? undefined : svc.server.panes.get(ev.pane);
  const where = p ? ` in pane ${p.n}${svc.quadrant(p) ? ` (${svc.quadrant(p)})` : ''}` : '';
  return {
    additionalContext:
      `You are the agent "${ev.agent}" in pane, a desktop shared with a human (${svc.human}) and other agents${where}. ` +
      `Lines that start with "[from ${svc.human}]" were typed by the human through \`pane write\`: answer them by running \`pane write 'your answer'\`. ` +
      'Lines that start with "[mail from NAME]" are mail; do what it asks. `pane finger` shows what every agent is on; `pane mail -s SUBJECT NAME` (body on stdin) writes to another agent; `pane plan NAME TEXT` updates your .plan.',
  };
}

/**
 * Room for one more hook-only agent: past MAX_HOOK_ONLY_AGENTS, those with no live
 * session and no pane are forgotten (oldest first); if none can be, a refusal.
 */
function roomForHookOnly(svc: AgentService, name: string): void {
  if (svc.runtimes.has(name) || svc.store.exists(name)) return;
  const hookOnly = [...svc.runtimes.keys()].filter((n) => !svc.store.exists(n));
  let over = hookOnly.length - MAX_HOOK_ONLY_AGENTS + 1;
  for (const n of hookOnly) {
    if (over <= 0) return;
    const r = svc.runtimes.get(n)!;
    if ([...r.sessions.values()].some((s) => s.state !== 'exited') || svc.panesOf(n).length > 0) continue;
    for (const id of r.sessions.keys()) svc.hookSessions.delete(id);
    svc.forget(n);
    over--;
  }
  if (over > 0) {
    throw new PaneFault('busy', `hook door: ${MAX_HOOK_ONLY_AGENTS} agents known only from hooks are live, the most hooks may make (MAX_HOOK_ONLY_AGENTS); end a session, or give the agent an account (pane agent add NAME)`, { reason: 'too many hook-only agents', subject: name });
  }
}

export async function handleHook(svc: AgentService, p: HookParams, caller: string | null) {
  // Another CLI's event becomes pane's own before anything reads it; its answer goes back in its form.
  const dialect = dialectOf(svc, p.app);
  if (dialect !== null) {
    const cliEvent = str(p.input[dialect.fields.event]);
    const input = toPaneInput(dialect, p.input);
    if (input === null) return { agent: null, state: null, output: null };
    const r = await handlePaneHook(svc, { ...p, input }, caller);
    return { ...r, output: toCliAnswer(dialect, cliEvent, r.output) };
  }
  return handlePaneHook(svc, p, caller);
}

/**
 * One hook event, and one agent/changed for it: its session, its state and what the
 * contributors moved (awareness's topics, in the microtask its presenter gathers them
 * in) are published together once its contributors have run. A prompt made two (the
 * state, then the topics), a new session two (the state, then the session to journal).
 */
async function handlePaneHook(svc: AgentService, p: HookParams, caller: string | null) {
  const { name, pane } = resolve(svc, p, caller);
  svc.holdChanges(name);
  try {
    return await handleResolvedHook(svc, p, name, pane);
  } finally {
    svc.releaseChanges(name);
  }
}

async function handleResolvedHook(svc: AgentService, p: HookParams, name: string, pane: number | null) {
  const input = p.input;
  const event = str(input.hook_event_name);
  const r = svc.runtime(name);
  const app = p.app !== undefined ? findApp(svc.deps.config().apps, p.app) : undefined;
  if (app) r.app = app.id;
  const sessionId = str(input.session_id) || (pane !== null ? `pane-${pane}` : `agent-${name}`);
  const now = Date.now();
  svc.hookSessions.set(sessionId, name);
  pruneOldest(svc.hookSessions, MAX_HOOK_SESSIONS, sessionId);
  const newSession = !r.sessions.has(sessionId);
  if (newSession) {
    r.sessions.set(sessionId, { id: sessionId, cwd: str(input.cwd), state: 'idle', since: now, pane });
    pruneOldest(r.sessions, MAX_HOOK_SESSIONS_PER_AGENT, sessionId);
  }
  const session = r.sessions.get(sessionId)!;
  if (pane !== null) {
    session.pane = pane;
    const pr = svc.panes.get(pane);
    if (pr && !pr.cooperative) {
      // From now on this pane reports itself: observation only looks for its questions (observer.ts).
      pr.cooperative = true;
      clearTimeout(pr.timer);
      pr.timer = undefined;
    }
    // A hook after a question on screen means it was answered and the CLI went on: the hook's state wins.
    if (pr && pr.question && event !== 'SessionStart') pr.question = undefined;
  }
  if (str(input.cwd)) session.cwd = str(input.cwd);
  if (event === 'UserPromptSubmit' && str(input.prompt)) {
    setLastPrompt(r, str(input.prompt), now);
  }
  const t = hookTransition(input);
  const asking = pane !== null ? svc.panes.get(pane)?.question : undefined;
  if (t && asking) {
    // A question still on its screen stands (SessionStart comes before Gemini's and Qwen's login dialogs): the hook's state waits behind it.
    asking.before = t.state;
    asking.source = 'reported';
  } else if (t) {
    if (pane !== null) svc.transition(name, { pane }, t, now);
    else {
      // Keep the session's own state in step too: it is what finger shows for hook-only agents.
      svc.transition(name, { session: sessionId }, t, now);
    }
    if (pane !== null && session.state !== t.state) {
      session.state = t.state;
      session.since = now;
    }
  }
  // A prompt is news even when the state stays (its text and time in finger); a new session id is what a restart
  // resumes: its agent event gets it journalled now (a kill -9 must not lose it). Held: one agent/changed for the hook.
  if (event === 'UserPromptSubmit' || newSession) svc.changed(name);
  if (event === 'SessionEnd' && pane !== null) svc.releasePane(pane);
  const state: AgentState | null = svc.runtimes.get(name)?.state ?? null;
  const ev: HookEventInfo = { agent: name, pane, event, input, state };
  const parts = await collect([(e) => whoAmI(svc, e), (e) => mailContext(svc, e), ...svc.contributors], ev);
  return { agent: name, state, output: answer(event, parts) };
}
