// Observation of agent panes that do not report through hooks: output means
// working; after SILENCE_MS without output the screen's last lines are matched
// against the CLI's prompt patterns (waiting), else the agent is idle. It also
// follows agent panes' lives (created, restarted, exited, closed) from events.
import type { Pane } from '../../kits/protocol/model';
import type { AgentService, PaneRuntime } from './service';
import { observeScreen, questionOnScreen } from './status';

/** Quiet this long after output before the screen is read: long enough for a TUI to finish a redraw. */
export const SILENCE_MS = 1200;
/** While the screen still says "working" (a spinner with no output), look again this often. */
export const RECHECK_MS = 2500;
/**
 * After a pane's program asks for the person (BEL, OSC 9/99/777), output and screen
 * reads do not take "needs you" back for this long: a TUI redraws its prompt or a
 * clock right after notifying, and that redraw is not work (agent-deck debounces for
 * the same reason; a Codex shown working long after it stopped is the bug it avoids).
 */
export const SCREEN_STATE_DEBOUNCE_MS = 3000;
/**
 * Output this soon after the person (or pane send) typed into the pane is its echo, not
 * work: a CLI redraws its input box at every key, and without this a person typing a
 * prompt flipped it working↔done at each key. A program that starts working after Enter
 * keeps printing past it.
 */
export const ECHO_MS = 250;

export function watchAgentPanes(svc: AgentService): () => void {
  const { server } = svc;
  /** Per pane: the last bell attr seen, and until when its "needs you" stands against output. */
  const bells = new Map<number, { at: string; holdUntil: number }>();
  const held = (n: number) => (bells.get(n)?.holdUntil ?? 0) > Date.now();

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

  /**
   * A pane that reports through hooks is still looked at for questions (a login, folder
   * trust, an API key): one on screen is "needs you" whatever its hooks said, and when it
   * is answered the state its hooks gave comes back.
   */
  const checkQuestion = (pr: PaneRuntime) => {
    const t = server.terminals.get(pr.pane);
    if (!t?.running) return;
    t.snapshot().then(
      (snap) => {
        if (svc.panes.get(pr.pane) !== pr || Date.now() - pr.lastOutputAt < SILENCE_MS) return;
        const q = questionOnScreen(snap.text, svc.prompts.get(pr.prompts));
        if (q !== null && !pr.question) {
          pr.question = { before: pr.state, source: pr.stateSource };
          svc.transition(pr.agent, { pane: pr.pane }, { state: 'waiting', reason: `question on screen: ${q}`, notify: `asks: ${q}`, source: 'observed' });
        } else if (q === null && pr.question) {
          const back = pr.question;
          pr.question = undefined;
          svc.transition(pr.agent, { pane: pr.pane }, { state: back.before === 'waiting' ? 'done' : back.before, reason: 'its question was answered', source: back.source ?? 'reported' });
        }
      },
      () => undefined,
    );
  };

  const check = (pr: PaneRuntime) => {
    pr.timer = undefined;
    if (pr.state === 'exited') return;
    const quiet = Date.now() - pr.lastOutputAt;
    if (quiet < SILENCE_MS) {
      pr.timer = setTimeout(() => check(pr), SILENCE_MS - quiet);
      return;
    }
    // Reporting through hooks: only its questions are looked for.
    if (pr.cooperative) return checkQuestion(pr);
    const t = server.terminals.get(pr.pane);
    if (!t?.running) return;
    t.snapshot().then(
      (snap) => {
        if (pr.cooperative || svc.panes.get(pr.pane) !== pr || Date.now() - pr.lastOutputAt < SILENCE_MS || held(pr.pane)) return;
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
        if (!pr) return;
        const now = Date.now();
        pr.lastOutputAt = now;
        pr.timer ??= setTimeout(() => check(pr), SILENCE_MS);
        // Reporting through hooks: its output is not observed as work (only its questions, once it falls silent).
        if (pr.cooperative || held(pr.pane)) return;
        // The echo of what was just typed is not work.
        const typedAt = server.terminals.get(pr.pane)?.lastInputAt ?? 0;
        if (now - typedAt < ECHO_MS) return;
        if (pr.state !== 'working') svc.transition(pr.agent, { pane: pr.pane }, { state: 'working', reason: 'output' });
        break;
      }
      case 'pane/attrs-changed': {
        // BEL or a notification (OSC 9/99/777) from an agent CLI that does not report through hooks: it wants the person.
        const d = data as { pane: number; attrs: Record<string, string> };
        const pr = svc.panes.get(d.pane);
        const at = d.attrs.bell;
        if (!pr || pr.cooperative || at === undefined || bells.get(d.pane)?.at === at) return;
        bells.set(d.pane, { at, holdUntil: Date.now() + SCREEN_STATE_DEBOUNCE_MS });
        const via = d.attrs['bell.via'] ?? 'bel';
        const text = d.attrs['bell.text'];
        const how = via === 'bel' ? 'rang the bell (BEL)' : `asked for a notification (${via.toUpperCase().replace('OSC', 'OSC ')})${text ? `: ${text}` : ''}`;
        svc.transition(pr.agent, { pane: pr.pane }, { state: 'waiting', reason: `observed: ${how}`, notify: how });
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
        bells.delete(n);
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
