// The limits of attach grants (grant.ts), zod-free: the CLI's start-up path reads them.

/** A grant's life when the person names none: an afternoon's pairing, not a standing door. */
export const DEFAULT_GRANT_TTL_MS = 60 * 60_000;
/** The longest a grant may live: a week. Longer sharing is a paired machine (`pane host pair`), not a token. */
export const MAX_GRANT_TTL_MS = 7 * 24 * 60 * 60_000;
/**
 * The longest a metrics grant may live: a year. It lets a scraper read counts and sizes
 * (never a screen, never a key in), and a Prometheus credential that expires weekly
 * would be a weekly outage of the dashboards.
 */
export const MAX_METRICS_GRANT_TTL_MS = 366 * 24 * 60 * 60_000;
/** The shortest: a second less and it would expire before the URL is opened. */
export const MIN_GRANT_TTL_MS = 1_000;
/** Grants alive at once: each is a standing door; dozens is already more than anyone shares. */
export const MAX_GRANTS = 64;
/** A grant's note: a few words saying whom it was for. */
export const MAX_GRANT_NOTE = 200;


const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A grant's life as the person writes it — `90s`, `30m`, `2h`, `7d`, or plain seconds —
 * in milliseconds, or why not (outside MIN_GRANT_TTL_MS..max). One reading for the
 * CLI, /server/grants and MCP.
 */
export function grantDuration(text: string, max = MAX_GRANT_TTL_MS): number | string {
  const m = /^([0-9]{1,9})([smhd]?)$/.exec(text.trim());
  if (!m) return `'${text.slice(0, 40)}' is not a duration (e.g. 90s, 30m, 2h, 7d)`;
  const ms = Number(m[1]) * UNIT_MS[m[2] || 's']!;
  if (ms < MIN_GRANT_TTL_MS || ms > max) return `${text} is outside ${MIN_GRANT_TTL_MS / 1000}s..${max / UNIT_MS.d!}d`;
  return ms;
}
