// The protocol's version number on its own, free of zod, so the CLI can print it
// (`pane --version`) without loading the schemas.

/** Bumped on any incompatible change; a server refuses other majors. */
export const PROTOCOL_VERSION = 1;
