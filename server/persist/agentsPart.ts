// The agents' live state as a persisted part: each agent's state, last prompt, topics,
// hook sessions (whose ids are what `claude --resume` takes) and mail waiting to be typed.
import { SavedAgentsSchema, type SavedAgents } from '../../kits/protocol/snapshot';
import type { PersistPart } from './parts';

/** Ids pane makes up when a hook carries none: nothing an agent CLI could resume. */
const SYNTHETIC_SESSION = /^(?:pane|agent)-/;

/** The newest real (CLI-reported) session of pane `n` among `sessions`. */
function newestOf(sessions: Iterable<{ id: string; pane: number | null; since: number }>, n: number): string | undefined {
  let best: { id: string; since: number } | undefined;
  for (const s of sessions) if (s.pane === n && !SYNTHETIC_SESSION.test(s.id) && (!best || s.since > best.since)) best = s;
  return best?.id;
}

/**
 * The conversation pane `n` resumes, from the agents part of a saved state: the
 * journal replays that part at every hook that names a new session, so it holds an
 * id even when the pane's own record (written on pane events) predates it.
 */
export function resumeFromSaved(saved: unknown, n: number, agent: string | undefined): { agent: string; session: string } | undefined {
  const r = SavedAgentsSchema.safeParse(saved);
  if (!agent || !r.success) return undefined;
  const a = r.data.agents.find((x) => x.name === agent);
  const id = a ? newestOf(a.sessions, n) : undefined;
  return id ? { agent, session: id } : undefined;
}

export const agentsPart: PersistPart = {
  family: 'agents',
  families: ['agent', 'awareness'],
  save(deps): SavedAgents {
    const svc = deps.agents();
    if (!svc) return { agents: [], hookSessions: {} };
    return {
      agents: [...svc.runtimes.values()].map((r) => ({
        name: r.name,
        state: r.state,
        since: r.since,
        lastPrompt: r.lastPrompt,
        lastPromptAt: r.lastPromptAt,
        topics: [...r.topics],
        typeWhenWaiting: [...r.typeWhenWaiting],
        sessions: [...r.sessions.values()].map((s) => ({ ...s })),
      })),
      hookSessions: Object.fromEntries(svc.hookSessions),
    };
  },
  load(deps, saved) {
    const svc = deps.agents();
    const r = SavedAgentsSchema.safeParse(saved);
    if (!svc || !r.success) return;
    for (const a of r.data.agents) {
      const rt = svc.runtime(a.name);
      Object.assign(rt, { state: a.state, since: a.since, lastPrompt: a.lastPrompt, lastPromptAt: a.lastPromptAt, topics: a.topics, typeWhenWaiting: a.typeWhenWaiting });
      for (const s of a.sessions) rt.sessions.set(s.id, { ...s });
    }
    for (const [id, name] of Object.entries(r.data.hookSessions)) svc.hookSessions.set(id, name);
  },
  resumeOf(deps, pane) {
    const name = pane.attrs.agent;
    const rt = name ? deps.agents()?.runtimes.get(name) : undefined;
    if (!rt || !name) return undefined;
    const id = newestOf(rt.sessions.values(), pane.n);
    return id ? { agent: name, session: id } : undefined;
  },
};
