// How fast this window's link to its server is, and what follows from it. On a slow
// or metered link (an ssh tunnel across the world, a phone's tether) a pane's attach
// asks for its visible screen alone, not its 2,000 rows of history: the screen shows
// in a round trip or two, and after it only what the program prints (36.4). The
// round trip is the hello's, measured at each connect; `?link=slow|fast` in the
// window's address decides instead (a person on a metered link, and tests).
// A link measured slow is measured again a few times after the window opens: at a
// cold start the first round trips also wait on the daemon's and the page's own
// start, and a local window judged slow then kept every pane's history out of
// reach for as long as it stayed connected.

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
