// Why a file operation was refused, for the person: FUSE carries only an errno back
// (EINVAL for an unknown ctl word, a bad argument, a resize at the edge), so the
// server's own message — which word, what the pane takes — goes to the mount's log,
// where `pane mount` says it is. Bounded: a script failing in a loop writes a
// summary, not a line a call.

/** Refusals written out per minute; past it, one line a minute counts the rest. */
export const MOUNT_REFUSALS_PER_MINUTE = 60;
const MINUTE_MS = 60_000;

/** `open` for writing; `open-read` for reading only. */
export type RefusedOp = 'open' | 'open-read' | 'read' | 'write' | 'list' | 'stat';

const DENIED = new Set(['denied', 'not-permitted', 'unauthorized']);
const ABSENT = new Set(['not-found', 'pane-not-found', 'session-not-found']);

export interface RefusalLog {
  refused(op: RefusedOp, path: string, e: unknown): void;
}

/** A one-line message of a thrown value: the server's words, control characters shown as spaces. */
function messageOf(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message;
  return (typeof m === 'string' ? m : String(e)).replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 2000);
}

/**
 * Writes each refusal worth a person's reading to `write` (one line, with its time).
 * Not logged: a path that is not there (stat, list: shells and `ls` probe for such
 * paths all the time) and a file opened for reading that does not allow it (`grep -r`
 * opens every `input`; "Permission denied" says it all). A write, an open for writing
 * and a read refused are.
 */
export function refusalLog(write: (line: string) => void, now: () => number = Date.now): RefusalLog {
  let windowStart = now();
  let inWindow = 0;
  let dropped = 0;
  return {
    refused(op, path, e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && (((op === 'stat' || op === 'list') && ABSENT.has(code)) || (op === 'open-read' && DENIED.has(code)))) return;
      const t = now();
      if (t - windowStart >= MINUTE_MS) {
        if (dropped > 0) write(`${new Date(t).toISOString()} ${dropped} more refusal${dropped === 1 ? '' : 's'} not logged in the last minute (MOUNT_REFUSALS_PER_MINUTE, ${MOUNT_REFUSALS_PER_MINUTE})`);
        windowStart = t;
        inWindow = 0;
        dropped = 0;
      }
      if (inWindow >= MOUNT_REFUSALS_PER_MINUTE) {
        dropped++;
        return;
      }
      inWindow++;
      write(`${new Date(t).toISOString()} ${op === 'open-read' ? 'open' : op} ${JSON.stringify(path)} refused: ${messageOf(e)}`);
    },
  };
}
