// The state-file version this build writes, apart from its zod schemas so the CLI
// (which loads no zod) can name it too.

/** The version this build writes; older ones are migrated on read, newer ones refused. */
export const STATE_VERSION = 2;
