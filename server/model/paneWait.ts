// pane/wait: a request held open until a pane reaches a state, so a script or an
// agent that typed a line into a shell (`pane send`) can wait for it to finish
// (`pane wait`), for a program to end, for a pane to go quiet (tmux's
// monitor-silence), or for an agent to need the person or finish its turn. The
// conditions are the server's own facts — the foreground process group
// (busyProgram), the stream's end, the last key written, the pane's state and its
// agent.state attr — never a pattern from the caller run here (`pane wait --match`
// matches in the CLI, on the output it follows). Waits are checked at each event
// about their pane and, while any waits on time (idle, quiet), every WAIT_TICK_MS;
// none costs anything when nobody waits.
import { PaneFault } from '../../kits/protocol/error';
import { exitLabel } from '../../kits/protocol/exitLabel';
import type { Pane } from '../../kits/protocol/model';
import type { Params, Result } from '../../kits/protocol/index';
import { AGENT_STATES, MAX_WAIT_MS, seconds, STATE_WORDS, type AgentState } from '../../kits/protocol/agentState';
import { clip, shown } from '../../kits/protocol/shown';
import type { PaneServer } from '../paneServer';
import { busyProgram } from './paneTracker';

/**
 * How long a pane whose shell holds the foreground must also print nothing, and take
 * no key, to count as idle: a line just sent is echoed and its program forked well
 * within it, so a wait that starts right after `pane send` does not find the shell
 * idle before the command began.
 */
export const IDLE_SETTLE_MS = 300;
/** How often waits on time (idle, quiet) look again while any is held: the resolution of a quiet spell. */
export const WAIT_TICK_MS = 100;
/** Waits held at once, every client together: each is a deadline and an entry here; past it a wait is refused as busy. */
export const MAX_PANE_WAITS = 256;

/** An agent's states that end an `agent` wait by default: all but working. */
const NOT_WORKING = AGENT_STATES.filter((s) => s !== 'working');

type WaitParams = Params<'pane/wait'>;
type WaitResult = Result<'pane/wait'>;

interface Waiter {
  n: number;
  client: string;
  p: WaitParams;
  start: number;
  deadline: number;
  timer: NodeJS.Timeout | null;
  /** Set while the wait is looked at as it is asked: met then, it was so already. */
  first: boolean;
  /** An idle wait saw something but the shell run: it finished, rather than was idle already. */
  sawBusy: boolean;
  /** What an idle wait last saw running in the foreground (the finished command's name). */
  ran?: string;
  resolve(r: WaitResult): void;
  reject(e: unknown): void;
}

export class PaneWaits {
  private readonly waiters = new Set<Waiter>();
  private ticker: NodeJS.Timeout | null = null;

  constructor(private readonly server: PaneServer) {
    server.listen((event, data) => {
      if (this.waiters.size === 0) return;
      const d = data as { pane?: number | Pane; client?: string };
      if (event === 'client/detached' && d.pane === undefined) return this.clientGone(d.client);
      const n = typeof d.pane === 'number' ? d.pane : d.pane?.n;
      if (n === undefined) return;
      if (event === 'pane/closed') return this.closed(n);
      if (event === 'pane/exited' || event === 'pane/changed' || event === 'pane/attrs-changed' || event === 'pane/output') this.look(n);
    });
  }

  /** Waits held now. */
  get held(): number {
    return this.waiters.size;
  }

  /** Holds a wait on `pane` for client `client`; resolves when met or at its timeout. */
  wait(pane: Pane, p: WaitParams, client: string): Promise<WaitResult> {
    if (p.until === 'agent' && pane.attrs['agent.state'] === undefined) {
      throw new PaneFault('failed', `pane ${pane.n} runs no agent pane knows the state of (it has no agent.state); wait for it with until: idle, exit or quiet`, { subject: String(pane.n) });
    }
    if (p.until !== 'quiet' && pane.state !== 'running' && pane.state !== 'starting') return Promise.resolve(this.answer(pane, p, Date.now(), true, true, undefined, this.ended(pane)));
    if (this.waiters.size >= MAX_PANE_WAITS) {
      throw new PaneFault('busy', `${MAX_PANE_WAITS} waits are held already (MAX_PANE_WAITS); end one, or wait with a timeout`, { reason: 'too many waits' });
    }
    const now = Date.now();
    return new Promise<WaitResult>((resolve, reject) => {
      const w: Waiter = { n: pane.n, client, p, start: now, deadline: now + (p.timeoutMs ?? MAX_WAIT_MS), timer: null, first: false, sawBusy: false, resolve, reject };
      this.waiters.add(w);
      w.timer = setTimeout(() => this.finish(w, false), Math.max(0, w.deadline - now));
      w.first = true;
      const met = this.check(w, now);
      w.first = false;
      if (!met) this.tickIfNeeded();
    });
  }

  /**
   * When (Date.now()) pane `n` last printed, as its tracker saw it: a wait counts its
   * quiet from there, not from its own start, so a wait asked again (a joined host's,
   * in slices) or after a spell of quiet finds the quiet already passed.
   */
  private printedAt(w: Waiter, now: number): number {
    const t = this.server.tracks.get(w.n);
    if (!t) return w.start; // a pane with no terminal prints nothing: counted from the wait's start
    return t.lastOutput > 0 ? now - (performance.now() - t.lastOutput) : 0;
  }

  private endOf(n: number): number {
    return this.server.terminals.get(n)?.streamEnd ?? 0;
  }

  private look(n: number): void {
    const now = Date.now();
    for (const w of [...this.waiters]) if (w.n === n) this.check(w, now);
  }

  /** Looks at one wait now; settles it and returns true when it is met. */
  private check(w: Waiter, now: number): boolean {
    const pane = this.server.panes.get(w.n);
    if (!pane) return this.closed(w.n), true;
    const over = pane.state !== 'running' && pane.state !== 'starting';
    switch (w.p.until) {
      case 'exit':
        if (!over) return false;
        break;
      case 'idle': {
        if (over) break;
        const t = this.server.terminals.get(w.n);
        const quietSince = Math.max(this.printedAt(w, now), t?.lastInputAt ?? 0);
        const busy = busyProgram(this.server, pane);
        if (busy !== null) {
          w.sawBusy = true;
          w.ran = busy;
          return false;
        }
        if (now - quietSince < IDLE_SETTLE_MS) return false;
        break;
      }
      case 'quiet':
        if (now - this.printedAt(w, now) < w.p.quietMs!) return false;
        break;
      case 'agent': {
        if (over) break;
        const s = pane.attrs['agent.state'] as AgentState | undefined;
        if (s === undefined || !(w.p.states ?? NOT_WORKING).includes(s)) return false;
        break;
      }
    }
    this.finish(w, true);
    return true;
  }

  private finish(w: Waiter, met: boolean): void {
    if (!this.waiters.delete(w)) return;
    if (w.timer) clearTimeout(w.timer);
    this.stopTickIfIdle();
    const pane = this.server.panes.get(w.n);
    if (!pane) return w.reject(closedFault(w.n));
    const over = pane.state !== 'running' && pane.state !== 'starting';
    // Idle already: nothing but the shell ran from the first look to the settled one (a prompt still drawing is no work).
    const already = met && (w.first || (w.p.until === 'idle' && !w.sawBusy && !over));
    w.resolve(this.answer(pane, w.p, w.start, met, already, w.ran, met ? (over && w.p.until !== 'quiet' ? this.ended(pane) : this.metWords(pane, w)) : this.pending(pane, w)));
  }

  private answer(pane: Pane, p: WaitParams, start: number, met: boolean, already: boolean, ran: string | undefined, what: string): WaitResult {
    const s = pane.attrs['agent.state'];
    const state = s !== undefined && (AGENT_STATES as readonly string[]).includes(s) ? (s as AgentState) : undefined;
    return {
      pane: pane.n,
      met,
      already,
      ...(ran !== undefined ? { ran: clip(ran, 200) } : {}),
      what: clip(what, 500),
      exit: pane.exit,
      ...(p.until === 'agent' && state !== undefined ? { state } : {}),
      offset: this.endOf(pane.n),
      waitedMs: Math.max(0, Date.now() - start),
    };
  }

  private ended(pane: Pane): string {
    return pane.exit ? exitLabel(pane.exit) : pane.state;
  }

  private metWords(pane: Pane, w: Waiter): string {
    switch (w.p.until) {
      case 'idle':
        return w.ran !== undefined ? `${clip(w.ran, 80)} finished: its shell is at its prompt` : 'at its prompt: nothing but its shell runs';
      case 'quiet':
        return `quiet for ${seconds(w.p.quietMs!)}`;
      case 'agent':
        return STATE_WORDS[pane.attrs['agent.state'] as AgentState] ?? 'idle';
      default:
        return this.ended(pane);
    }
  }

  /** What was still going at the timeout, in words (the caller says how long it waited). */
  private pending(pane: Pane, w: Waiter): string {
    switch (w.p.until) {
      case 'idle': {
        const busy = busyProgram(this.server, pane);
        return busy !== null ? `${shown(clip(busy, 80))} still runs` : 'still printing';
      }
      case 'exit':
        return 'still running';
      case 'quiet':
        return `never quiet for ${seconds(w.p.quietMs!)}`;
      case 'agent':
        return `still ${STATE_WORDS[pane.attrs['agent.state'] as AgentState] ?? 'working'}`;
    }
  }

  private closed(n: number): void {
    for (const w of [...this.waiters]) {
      if (w.n !== n) continue;
      this.waiters.delete(w);
      if (w.timer) clearTimeout(w.timer);
      w.reject(closedFault(n));
    }
    this.stopTickIfIdle();
  }

  private clientGone(client: string | undefined): void {
    for (const w of [...this.waiters]) {
      if (w.client !== client) continue;
      this.waiters.delete(w);
      if (w.timer) clearTimeout(w.timer);
      w.reject(new PaneFault('failed', 'the client that waited has gone'));
    }
    this.stopTickIfIdle();
  }

  private tickIfNeeded(): void {
    if (this.ticker || ![...this.waiters].some((w) => w.p.until === 'idle' || w.p.until === 'quiet')) return;
    this.ticker = setInterval(() => {
      const now = Date.now();
      for (const w of [...this.waiters]) if (w.p.until === 'idle' || w.p.until === 'quiet') this.check(w, now);
    }, WAIT_TICK_MS);
    this.ticker.unref();
  }

  private stopTickIfIdle(): void {
    if (this.ticker && ![...this.waiters].some((w) => w.p.until === 'idle' || w.p.until === 'quiet')) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }
}

function closedFault(n: number): PaneFault {
  return new PaneFault('pane-not-found', `pane ${n} was closed while it was waited for`, { subject: String(n) });
}
