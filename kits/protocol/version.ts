// The protocol's version number on its own, free of zod, so the CLI can print it
// (`pane --version`) without loading the schemas.

/** Bumped on any incompatible change; a server refuses other majors. */
export const PROTOCOL_VERSION = 1;

/**
 * The oldest protocol this code still speaks. A hello carries the client's [min, max]
 * and the server picks the highest both speak (negotiate.ts); a client from before
 * ranges sends one number, taken as [n, n].
 */
export const MIN_PROTOCOL_VERSION = 1;

/**
 * Optional abilities a peer may have within one protocol version, agreed in the hello:
 * the welcome names those both ends have. A flag is added when a feature ships and
 * removed only with a protocol bump. 'version-range': the hello's [min, max] is read.
 */
export const PROTOCOL_FEATURES: readonly string[] = ['version-range'];
