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

