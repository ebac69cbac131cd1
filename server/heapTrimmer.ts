// Gives freed heap back to the system once the daemon goes quiet after work (issue
// 35, decision 051). A flood leaves glibc's heap full of free chunks between live
// ones: 20 panes filled with 10,000 lines each kept 30 MB of free heap resident,
// 21 MiB of which malloc_trim returned (settled RSS 136 → 113 MiB). glibc trims only
// the free top by itself. The daemon's bytes read (/proc/self/io) tell work from
// quiet: a trim follows TRIM_AFTER_BYTES of work and TRIM_QUIET_MS of quiet, and a
// few more follow as the quiet lasts (TRIM_PASSES).
import fs from 'node:fs';
import { loadGlibcHeap, type GlibcHeap } from '../kits/node/glibcHeap';
import { isolateCollector } from '../kits/node/isolateGc';
import { REST_AFTER_MS } from './pty/screenHistory';
import { TickWhileNeeded } from '../kits/node/tickWhileNeeded';

/** How often the daemon looks whether it went quiet. */
export const TRIM_CHECK_MS = 4_000;
/**
 * Quiet this long before a trim: past the screens' rest (REST_AFTER_MS), when they
 * let go of their slack rows, with a check's time for those to be collected.
 */
export const TRIM_QUIET_MS = REST_AFTER_MS + TRIM_CHECK_MS;
/** Bytes read since the last trim that make another worth its walk of the heap (a few ms). */
export const TRIM_AFTER_BYTES = 4 << 20;
/** Bytes read within one check that still count as quiet: a clock, a prompt redrawn, a heartbeat. */
export const QUIET_BYTES_PER_CHECK = 64 << 10;
/**
 * Trims in one quiet spell after work, each after twice the quiet of the one before
 * (14, 28, 56 and 112 s): what is let go later in the quiet (a screen that rests, a
 * ring that shrinks, on timers of their own) is handed back by a later pass.
 */
export const TRIM_PASSES = 4;

/** Bytes this process has read so far (rchar: every read(2), from ptys, sockets and files), or null where /proc has no io. */
export function bytesReadSoFar(): number | null {
  try {
    const m = /^rchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface HeapTrimmerOptions {
  /** glibc's allocator, or why not (loaded at the first trim, not at the daemon's start). */
  heap?: () => Pick<GlibcHeap, 'trim'> | string;
  /**
   * Collects this isolate's garbage before each trim (made at the first trim): a quiet
   * daemon's isolate may not collect for minutes, and what it holds dead is not free to
   * glibc yet (a quiet pane's old 1 MiB ring, let go at RING_IDLE_MS: 20 full panes kept
   * 19 MiB of them some runs).
   */
  collector?: () => () => void;
  /** Collects the process's other isolates first (the screen worker's: ScreenHost.collect); the trim waits for it. */
  others?: () => Promise<unknown>;
  readBytes?: () => number | null;
  now?: () => number;
  /** Told once when trimming cannot work here. */
  warn?: (message: string) => void;
  /** The process's resident bytes, read around each trim to count what it gave back. */
  residentBytes?: () => number;
  /** Checks on a timer of its own; off for tests that call check() themselves. */
  timer?: boolean;
}

/** What the trims did so far: `server/metrics` answers it (pane_daemon_heap_trims_total, …_trimmed_bytes_total). */
export interface HeapTrimCounts {
  readonly trims: number;
  /** Resident bytes the process held less right after its trims (each trim's fall, the collection before it included). */
  readonly freedBytes: number;
}

export class HeapTrimmer implements HeapTrimCounts {
  trims = 0;
  freedBytes = 0;
  private heap: Pick<GlibcHeap, 'trim'> | null = null;
  private collect: (() => void) | null = null;
  private off = false;
  private lastRead: number | null = null;
  private readAtTrim: number;
  /** Trims done in this quiet spell. */
  private passes = 0;
  private lastBusy: number;
  /** The checks, every TRIM_CHECK_MS while a trim may be due (poke() after work): a daemon quiet since its last pass makes no wakeups. */
  private readonly ticks: TickWhileNeeded | null;
  private readonly o: Required<Omit<HeapTrimmerOptions, 'timer' | 'others'>> & Pick<HeapTrimmerOptions, 'others'>;
  /** Waiting for the other isolates' collection (HeapTrimmerOptions.others). */
  private collecting = false;

  constructor(o: HeapTrimmerOptions = {}) {
    this.o = { heap: o.heap ?? loadGlibcHeap, collector: o.collector ?? isolateCollector, readBytes: o.readBytes ?? bytesReadSoFar, now: o.now ?? (() => performance.now()), warn: o.warn ?? (() => {}), residentBytes: o.residentBytes ?? (() => process.memoryUsage.rss()), ...(o.others ? { others: o.others } : {}) };
    this.lastBusy = this.o.now();
    // From the daemon's start: what it read to start counts as work (its garbage is freed heap too).
    this.readAtTrim = 0;
    this.ticks = o.timer === false ? null : new TickWhileNeeded(TRIM_CHECK_MS, () => this.due(), () => this.check());
    this.ticks?.poke();
  }

  /** Work was done since the last check (poke): the next check weighs it, whatever the passes say. */
  private worked = false;

  /** The daemon did work (output came, a client connected): checks resume if they had stopped. */
  poke(): void {
    this.worked = true;
    this.ticks?.poke();
  }

  /**
   * Whether a check may still trim: not once every pass of this quiet spell is done, nor
   * while too little was read since the last trim to be worth one (checks stop then, and
   * the next poke starts them; the reads meanwhile count as work at its first check).
   */
  private due(): boolean {
    if (this.off) return false;
    if (this.worked || this.collecting || this.lastRead === null) return true;
    if (this.passes >= TRIM_PASSES) return false;
    return this.passes > 0 || this.lastRead - this.readAtTrim >= TRIM_AFTER_BYTES;
  }

  /**
   * One look: after TRIM_AFTER_BYTES of work, trims once quiet for TRIM_QUIET_MS, and
   * again (TRIM_PASSES in all) each time that quiet has doubled.
   */
  check(): void {
    if (this.off || this.collecting) return;
    this.worked = false;
    const read = this.o.readBytes();
    if (read === null) return this.disable('/proc/self/io is not readable, so the daemon cannot tell when it went quiet');
    const now = this.o.now();
    if (this.lastRead === null || read - this.lastRead > QUIET_BYTES_PER_CHECK) {
      this.lastBusy = now;
      this.passes = 0;
    }
    this.lastRead = read;
    if (this.passes === 0 && read - this.readAtTrim < TRIM_AFTER_BYTES) return;
    if (this.passes >= TRIM_PASSES || now - this.lastBusy < TRIM_QUIET_MS * 2 ** this.passes) return;
    if (!this.heap) {
      const h = this.o.heap();
      if (typeof h === 'string') return this.disable(h);
      this.heap = h;
      this.collect = this.o.collector();
    }
    const before = this.o.residentBytes();
    if (!this.o.others) return this.trim(read, before);
    this.collecting = true;
    void this.o
      .others()
      .catch(() => undefined) // a worker that failed has nothing left to collect
      .then(() => {
        this.collecting = false;
        if (!this.off) this.trim(read, before);
      });
  }

  /** This isolate collected, then glibc's free heap handed back; `before`: resident bytes before any collection. */
  private trim(read: number, before: number): void {
    this.collect?.();
    this.heap!.trim();
    this.freedBytes += Math.max(0, before - this.o.residentBytes());
    this.trims++;
    this.passes++;
    this.readAtTrim = read;
  }

  stop(): void {
    this.ticks?.stop();
    this.off = true;
  }

  private disable(why: string): void {
    this.stop();
    this.o.warn(`memory freed after a flood stays with the daemon until it is reused: ${why}`);
  }
}
