// Counts and lengths of what config files (keymap.json, settings.json, app files)
// and launch requests may hold: one table, each bound with its reason. The schemas
// that use them report a file past one by file and field; the bounds keep every
// file small enough to read on the main loop and every list of them within a frame.
import { z } from 'zod';

/**
 * Bytes of one config file pane reads. The largest real one is a few KiB (a keymap
 * with every action bound is ~3 KiB); past this the file is reported, not parsed.
 */
export const MAX_CONFIG_FILE_BYTES = 1 << 20;
/**
 * App files read from one directory (built-in or the user's), in name order. A
 * launcher of hundreds of apps is already unusable; past it the rest are reported.
 */
export const MAX_APPS_PER_DIR = 256;
/** Bindings in one keymap table (bindings, prefixBindings). The defaults have ~40, every action ~50. */
export const MAX_KEY_BINDINGS = 512;
/** Characters of a chord as written: "Ctrl+Shift+Alt+Meta+PageDown" is 28. */
export const MAX_CHORD_LENGTH = 64;
/** Characters of one binding's action ("exec WORD ARGS"): a command line, not a script. */
export const MAX_ACTION_LENGTH = 1024;
/**
 * Elements of an argv asked for (an app file's launch, pane/split, session/new). A
 * command line has tens; a list of thousands of files belongs in a file it reads.
 */
export const MAX_ARGS = 1024;
/**
 * Characters of one argv element or environment value asked for. Linux itself refuses
 * a single one past 128 KiB (MAX_ARG_STRLEN); 16 KiB is a long inline script.
 */
export const MAX_ARG_LENGTH = 16 << 10;
/** Characters of a program path or working directory: Linux's PATH_MAX. */
export const MAX_PATH_LENGTH = 4096;
/** Environment entries a launch asks to add (on top of what panes get anyway). */
export const MAX_ENV_ENTRIES = 256;
/** Characters of an environment variable's name. */
export const MAX_ENV_NAME_LENGTH = 256;
/**
 * Host files read from ~/.config/pane/hosts/ (issue 26), in name order; the rest are
 * reported. Each joined host is a child process (ssh) and a link; tens is a fleet.
 */
export const MAX_HOSTS = 64;
/** ssh -o options one host file may set (the allowlist has 15; repeats are one key). */
export const MAX_SSH_OPTIONS = 32;
/** Entries of an app file's attrs, and characters of each key and value: a tag's worth. */
export const MAX_APP_ATTRS = 64;
export const MAX_ATTR_KEY_LENGTH = 100;
export const MAX_ATTR_VALUE_LENGTH = 1000;
/**
 * Most attrs a client may leave on one pane: each is sent with every pane/changed
 * and snapshot, so a client setting thousands would bloat every other client's
 * frames. The server's own attrs (agent.*, quadrant, title, bell) are a handful.
 */
export const MAX_CLIENT_ATTRS = 256;
/**
 * Characters of one attr value a client sets on a pane (pane/attrs, a new pane's
 * attrs): a paragraph. With MAX_CLIENT_ATTRS and MAX_ATTR_KEY_LENGTH, a pane's attrs
 * stay near a megabyte at most (a key had no bound: one of 2 MB was taken, journalled
 * and sent with every change of the pane).
 */
export const MAX_PANE_ATTR_VALUE_LENGTH = 4096;

/**
 * A record (an object of string keys) of at most `max` entries, each key at most
 * `maxKey` characters; a refusal names the bound and, for a key, the key.
 */
export function boundedRecord<V extends z.ZodType>(value: V, max: number, bound: string, what: string, maxKey: number, keyBound: string) {
  return z.record(z.string(), value).superRefine((o, ctx) => {
    const keys = Object.keys(o);
    if (keys.length > max) ctx.addIssue({ code: 'custom', message: `at most ${max} ${what} (${bound}); this has ${keys.length}` });
    for (const k of keys) if (k.length > maxKey) ctx.addIssue({ code: 'custom', path: [k], message: `a key of at most ${maxKey} characters (${keyBound}); this is ${k.length}` });
  });
}

/** An array of at most `max` items, whose refusal names the bound. */
export function boundedArray<T extends z.ZodType>(item: T, max: number, bound: string, what: string) {
  return z.array(item).max(max, { error: (iss) => `at most ${max} ${what} (${bound}); this has ${(iss.input as unknown[]).length}` });
}

/** A string of at most `max` characters, whose refusal names the bound. */
export function boundedString(max: number, bound: string) {
  return z.string().max(max, { error: (iss) => `at most ${max} characters (${bound}); this is ${(iss.input as string).length}` });
}
