// Observation of agent panes that do not report through hooks: output means
// working; after SILENCE_MS without output the screen's last lines are matched
// against the CLI's prompt patterns (waiting), else the agent is idle. It also
// follows agent panes' lives (created, restarted, exited, closed) from events.
import type { Pane } from '../../kits/protocol/model';
import type { AgentService, PaneRuntime } from './service';
import { observeScreen } from './status';

/** Quiet this long after output before the screen is read: long enough for a TUI to finish a redraw. */
export const SILENCE_MS = 1200;
/** While the screen still says "working" (a spinner with no output), look again this often. */
export const RECHECK_MS = 2500;

export function watchAgentPanes(svc: AgentService): () => void {
  const { server } = svc;

  const adopt = (p: Pane) => {
    const name = svc.isAgentPane(p);
    if (!name || svc.panes.has(p.n)) return;
    const a = p.attrs;
    const pr: PaneRuntime = {
      agent: name,
      pane: p.n,
      state: 'idle',
      since: Date.now(),
      cooperative: false,
      lastOutputAt: 0,
      timer: undefined,
      prompts: a['agent.prompts'] ?? null,
      worktree: a['agent.worktree'] && a['agent.branch'] && a['agent.repo'] ? { path: a['agent.worktree'], branch: a['agent.branch'], repo: a['agent.repo'] } : null,
    };
    svc.panes.set(p.n, pr);
    svc.transition(name, { pane: p.n }, { state: 'idle', reason: 'pane started' });
    svc.changed(name);
  };

  const check = (pr: PaneRuntime) => {
    pr.timer = undefined;
    if (pr.cooperative || pr.state === 'exited') return;
    const quiet = Date.now() - pr.lastOutputAt;
    if (quiet < SILENCE_MS) {
      pr.timer = setTimeout(() => check(pr), SILENCE_MS - quiet);
      return;
    }
    const t = server.terminals.get(pr.pane);
    if (!t?.running) return;
    t.snapshot().then(
      (snap) => {
        if (pr.cooperative || svc.panes.get(pr.pane) !== pr || Date.now() - pr.lastOutputAt < SILENCE_MS) return;
        const tr = observeScreen(snap.text, svc.prompts.get(pr.prompts));
        svc.transition(pr.agent, { pane: pr.pane }, tr);
        if (tr.state === 'working') pr.timer = setTimeout(() => check(pr), RECHECK_MS);
      },
      () => undefined, // the pane closed meanwhile
    );
  };

  const stop = server.listen((event, data) => {
    switch (event) {
      case 'pane/created':
        adopt((data as { pane: Pane }).pane);
        break;
      case 'pane/output': {
        const pr = svc.panes.get((data as { pane: number }).pane);
        if (!pr || pr.cooperative) return;
        pr.lastOutputAt = Date.now();
        if (pr.state !== 'working') svc.transition(pr.agent, { pane: pr.pane }, { state: 'working', reason: 'output' });
        pr.timer ??= setTimeout(() => check(pr), SILENCE_MS);
        break;
      }
      case 'pane/exited': {
        const pr = svc.panes.get((data as { pane: number }).pane);
        if (!pr) return;
        clearTimeout(pr.timer);
        pr.timer = undefined;
        svc.transition(pr.agent, { pane: pr.pane }, { state: 'exited', reason: 'its program exited' });
        break;
      }
      case 'pane/restarted': {
        const pr = svc.panes.get((data as { pane: Pane }).pane.n);
        if (!pr) return;
        pr.cooperative = false;
        svc.transition(pr.agent, { pane: pr.pane }, { state: 'idle', reason: 'restarted' });
        break;
      }
      case 'pane/closed': {
        const n = (data as { pane: number }).pane;
        svc.identity.delete(n);
        const pr = svc.panes.get(n);
        if (!pr) return;
        clearTimeout(pr.timer);
        svc.panes.delete(n);
        const sessions = svc.runtimes.get(pr.agent)?.sessions;
        for (const [id, s] of sessions ?? []) if (s.pane === n) sessions!.delete(id);
        svc.transition(pr.agent, {}, { state: 'exited', reason: 'pane closed' });
        svc.changed(pr.agent);
        break;
      }
    }
  });
  return () => {
    stop();
    for (const pr of svc.panes.values()) clearTimeout(pr.timer);
  };
}
