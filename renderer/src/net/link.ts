// How fast this window's link to its server is, and what follows from it. On a slow
// or metered link (an ssh tunnel across the world, a phone's tether) a pane's attach
// asks for its visible screen alone, not its 2,000 rows of history: the screen shows
// in a round trip or two, and after it only what the program prints (36.4). The
// round trip is the hello's, measured at each connect; `?link=slow|fast` in the
// window's address decides instead (a person on a metered link, and tests).
// A link measured slow is measured again a few times after the window opens: at a
// cold start the first round trips also wait on the daemon's and the page's own
// start, and a local window judged slow then kept every pane's history out of
// reach for as long as it stayed connected. While the window is open a LinkWatch
// keeps asking (below): the link is judged again both ways, and a link that died
// without closing is noticed, said, and given up for a new socket.

/**
 * A hello's round trip past which the link is slow: loopback and a LAN answer in a
 * few ms, a same-region cloud host in ~20; past 50 ms (another continent, a tether)
 * each 100 KB of history is a visible wait at the bandwidth such links have.
 */
export const SLOW_LINK_RTT_MS = 50;
/** Rows of history a pane's attach pulls on a slow link: the visible screen alone. */
export const SLOW_LINK_HISTORY = 0;

/**
 * Round trips asked again after a link was measured slow, and the wait before the
 * first (doubling after each): 0.25 + 0.5 + 1 + 2 + 4 s covers a cold start on a
 * loaded machine (the daemon's own start alone has taken ~0.9 s beside Chromium's)
 * for five small requests, nothing to a link that is slow.
 */
export const LINK_RECHECKS = 5;
export const LINK_RECHECK_FIRST_MS = 250;

export interface Link {
  rttMs: number;
  slow: boolean;
}

/** What the window's address says of its link (`?link=slow|fast`), or null: measured. */
export function linkSaid(search: string = typeof location === 'undefined' ? '' : location.search): 'slow' | 'fast' | null {
  const said = new URLSearchParams(search).get('link');
  return said === 'slow' || said === 'fast' ? said : null;
}

/** The link as measured (`rttMs`), unless the address says which it is. */
export function judgeLink(rttMs: number, search: string = typeof location === 'undefined' ? '' : location.search): Link {
  const said = linkSaid(search);
  const rounded = Math.round(rttMs);
  if (said === 'slow') return { rttMs: rounded, slow: true };
  if (said === 'fast') return { rttMs: rounded, slow: false };
  return { rttMs: rounded, slow: rttMs > SLOW_LINK_RTT_MS };
}

/**
 * Measures a link judged slow again: `probe` times one round trip, up to
 * LINK_RECHECKS times with doubling waits between, while `wanted()` (the same
 * connection is open). Resolves with the least round trip seen as soon as one is
 * under SLOW_LINK_RTT_MS (a queue can make a fast link's round trip slow, never a
 * slow link's fast), else with the least of them; null when it stopped unwanted
 * or a probe failed.
 */
export async function recheckLink(probe: () => Promise<number>, wait: (ms: number) => Promise<void>, wanted: () => boolean): Promise<number | null> {
  let best = Infinity;
  for (let i = 0, gap = LINK_RECHECK_FIRST_MS; i < LINK_RECHECKS; i++, gap *= 2) {
    await wait(gap);
    if (!wanted()) return null;
    try {
      best = Math.min(best, await probe());
    } catch {
      return null;
    }
    if (best <= SLOW_LINK_RTT_MS) break;
  }
  return wanted() ? best : null;
}

/**
 * How often an open window asks the server a small question (server/info) while it
 * is open: its answer times the link again, and its absence is how a link that died
 * without closing is noticed (a tunnel whose far end went away, a laptop that slept,
 * a network changed under the socket). Browsers send no WebSocket pings of their own.
 */
export const LINK_PROBE_MS = 5_000;
/** How often the watch looks: the status line's count of silent seconds moves at this pace. */
export const LINK_TICK_MS = 1_000;
/** A question unanswered, and nothing else heard since it was asked, for this long: the status line says the server is silent. */
export const LINK_SILENT_MS = 5_000;
/**
 * The same for this long: the window drops the socket and connects again (its panes
 * attach from where they were). The host link's DROP_AFTER_MS is the same bound.
 */
export const LINK_DEAD_MS = 20_000;
/** Answers in a row over SLOW_LINK_RTT_MS that make a link judged fast slow (one can wait behind a flood's output). */
export const LINK_SLOW_PROBES = 2;

/** What a LinkWatch uses: a probe that times one round trip, a clock, when the server was last heard, and where its verdicts go. */
export interface LinkWatchDeps {
  probe(): Promise<number>;
  now(): number;
  /** When any frame last came from the server (the page's clock). */
  heardAt(): number;
  /** The link is not what it was judged (said only when the address does not say which it is). */
  judged(link: Link): void;
  /** Milliseconds the server has been silent with a question out, or null once it answers. */
  silent(ms: number | null): void;
  /** Silent for LINK_DEAD_MS: the caller drops the connection. */
  dead(why: string): void;
}

/**
 * Watches an open connection's link: asks every LINK_PROBE_MS, judges the link again
 * both ways (fast after one answer under the line, slow after LINK_SLOW_PROBES over
 * it), and says when the server has gone silent and when to give the socket up. A
 * page that itself stood still (a long task, a machine asleep) does not count that
 * time against the server: its first tick after resumes starts the silence again.
 */
export class LinkWatch {
  private timer: ReturnType<typeof setInterval> | null = null;
  private asked: number | null = null;
  private lastProbe: number;
  private lastTick: number;
  private slowRun: number[] = [];
  private saidSilent = false;
  private stopped = false;

  constructor(
    private link: Link,
    private readonly deps: LinkWatchDeps,
    private readonly search: string = typeof location === 'undefined' ? '' : location.search,
  ) {
    this.lastTick = deps.now();
    this.lastProbe = deps.now();
  }

  /** Starts the ticks (setInterval), or runs none where the caller ticks itself (tests). */
  start(): this {
    this.timer = setInterval(() => this.tick(), LINK_TICK_MS);
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The link as judged elsewhere (the recheck after a slow connect). */
  setLink(link: Link): void {
    this.link = link;
  }

  tick(): void {
    if (this.stopped) return;
    const now = this.deps.now();
    const stood = now - this.lastTick > LINK_TICK_MS * 3;
    this.lastTick = now;
    if (stood) {
      // The page stood still: what arrived meanwhile is still queued behind this tick. Start over.
      if (this.asked !== null) this.asked = now;
      return;
    }
    if (this.asked !== null) {
      const quiet = now - Math.max(this.asked, this.deps.heardAt());
      if (quiet >= LINK_DEAD_MS) {
        this.stop();
        this.deps.dead(`the server has not answered for ${Math.round(quiet / 1000)} s`);
      } else if (quiet >= LINK_SILENT_MS) {
        this.saidSilent = true;
        this.deps.silent(quiet);
      } else if (this.saidSilent) {
        // Heard from (output, an event) though the question is still out.
        this.saidSilent = false;
        this.deps.silent(null);
      }
      return;
    }
    if (now - this.lastProbe < LINK_PROBE_MS) return;
    this.lastProbe = now;
    this.asked = now;
    this.deps.probe().then(
      (rtt) => this.answered(rtt),
      () => undefined, // the connection closed: its own close says so
    );
  }

  private answered(rtt: number): void {
    if (this.stopped) return;
    this.asked = null;
    if (this.saidSilent) {
      this.saidSilent = false;
      this.deps.silent(null);
    }
    if (linkSaid(this.search) !== null) return;
    if (rtt <= SLOW_LINK_RTT_MS) {
      this.slowRun = [];
      if (this.link.slow) this.judge(rtt);
      return;
    }
    this.slowRun.push(rtt);
    if (!this.link.slow && this.slowRun.length >= LINK_SLOW_PROBES) this.judge(Math.min(...this.slowRun));
  }

  private judge(rtt: number): void {
    this.slowRun = [];
    this.link = judgeLink(rtt, this.search);
    this.deps.judged(this.link);
  }
}
