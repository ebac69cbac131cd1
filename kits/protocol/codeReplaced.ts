// What the CLI says of a daemon whose code an update replaced on disk while it ran
// (server/codeOnDisk.ts; server/info's codeReplaced): `pane info` and `npm start` say the
// same (the window's notice is a short form). Zod-free: the launcher's start-up path reads it.

/** Follows "the pane daemon is running, " (or "the pane server runs the code it started with"). */
export const CODE_REPLACED =
  'but it runs the code it started with: pane was updated or rebuilt since, and what changed is not in it. To run the new code: pane stop, then start pane again (shells and agents come back at once, other programs wait for Enter)';
