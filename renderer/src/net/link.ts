// How fast this window's link to its server is, and what follows from it. On a slow
// or metered link (an ssh tunnel across the world, a phone's tether) a pane's attach
// asks for its visible screen alone, not its 2,000 rows of history: the screen shows
// in a round trip or two, and after it only what the program prints (36.4). The
// round trip is the hello's, measured at each connect; `?link=slow|fast` in the
// window's address decides instead (a person on a metered link, and tests).

/**
 * A hello's round trip past which the link is slow: loopback and a LAN answer in a
 * few ms, a same-region cloud host in ~20; past 50 ms (another continent, a tether)
 * each 100 KB of history is a visible wait at the bandwidth such links have.
 */
export const SLOW_LINK_RTT_MS = 50;
/** Rows of history a pane's attach pulls on a slow link: the visible screen alone. */
export const SLOW_LINK_HISTORY = 0;

export interface Link {
  rttMs: number;
  slow: boolean;
}

/** The link as measured (`rttMs`), unless the address says which it is. */
export function judgeLink(rttMs: number, search: string = typeof location === 'undefined' ? '' : location.search): Link {
  const said = new URLSearchParams(search).get('link');
  const rounded = Math.round(rttMs);
  if (said === 'slow') return { rttMs: rounded, slow: true };
  if (said === 'fast') return { rttMs: rounded, slow: false };
  return { rttMs: rounded, slow: rttMs > SLOW_LINK_RTT_MS };
}
