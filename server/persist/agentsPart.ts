// The agents' live state as a persisted part: each agent's state, last prompt, topics,
// hook sessions (whose ids are what `claude --resume` takes) and mail waiting to be typed.
import { SavedAgentsSchema, type SavedAgents } from '../../kits/protocol/snapshot';
import type { PersistPart } from './parts';

/** Ids pane makes up when a hook carries none: nothing an agent CLI could resume. */
const SYNTHETIC_SESSION = /^(?:pane|agent)-/;

export const agentsPart: PersistPart = {
  family: 'agents',
  families: ['agent', 'awareness'],
  save(services): SavedAgents {
    const svc = services.agents;
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
  load(services, saved) {
    const svc = services.agents;
    const r = SavedAgentsSchema.safeParse(saved);
    if (!svc || !r.success) return;
    for (const a of r.data.agents) {
      const rt = svc.runtime(a.name);
      Object.assign(rt, { state: a.state, since: a.since, lastPrompt: a.lastPrompt, lastPromptAt: a.lastPromptAt, topics: a.topics, typeWhenWaiting: a.typeWhenWaiting });
      for (const s of a.sessions) rt.sessions.set(s.id, { ...s });
    }
    for (const [id, name] of Object.entries(r.data.hookSessions)) svc.hookSessions.set(id, name);
  },
  resumeOf(services, pane) {
    const name = pane.attrs.agent;
    const rt = name ? services.agents?.runtimes.get(name) : undefined;
    if (!rt || !name) return undefined;
    const mine = [...rt.sessions.values()].filter((s) => s.pane === pane.n && !SYNTHETIC_SESSION.test(s.id)).sort((a, b) => b.since - a.since);
    return mine[0] ? { agent: name, session: mine[0].id } : undefined;
  },
};
