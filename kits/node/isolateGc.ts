// A full collection of the calling isolate, on demand: before the daemon hands freed
// heap back to the system (server/heapTrimmer.ts, decision 051), each isolate —
// the main thread's and the screen worker's — collects what it holds dead, or that
// memory is not free for glibc to give back. An idle isolate may not collect for
// minutes: 20 panes' flood left the worker holding ~35 MiB of garbage (its pages and
// the buffers it had parsed) past the trim in some runs.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** This isolate's `gc`, once made (module state is per isolate: the worker has its own). */
let made: (() => void) | null = null;

/**
 * The calling isolate's `gc`: one full collection. `--expose-gc` set now reaches
 * contexts made afterwards only, so the function comes from a fresh one, made once per
 * isolate however many callers ask (each context costs memory). The flag is the
 * process's; a second isolate setting it again is harmless.
 */
export function isolateGc(): () => void {
  if (made) return made;
  v8.setFlagsFromString('--expose-gc');
  made = runInNewContext('gc') as () => void;
  return made;
}

/**
 * A collection made before a trim: when it returns, what the isolate held dead is
 * free memory, its ArrayBuffers' included.
 */
export function isolateCollector(): () => void {
  const gc = isolateGc();
  // Twice: a collection frees the dead ArrayBuffers' memory (xterm's rows, parsed chunks, old rings) on a background
  // thread after it returns, 2-4 ms later, so a trim right after one would find that memory not yet free. The second
  // collection first waits for the first's frees to finish (and counts them in `external_memory`, which the first
  // leaves stale). Measured: RSS 85 MiB right after one gc(), 45 MiB 4 ms later or right after gc(); gc().
  return () => {
    gc();
    gc();
  };
}
