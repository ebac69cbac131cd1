// `pane output --follow`: write a pane's bytes to stdout in order, each exactly
// once, until its program exits (how, said on stderr), the pane closes, or
// Ctrl-C. The follower is a flow-controlled client, as a window is: it acks what
// its stdout has taken, and the server pauses a flooding program while the
// follower is a window behind, so a reader slowed by a loaded machine still gets
// every byte (issue 35: without acks a follower starved of CPU fell a ring behind
// and lost megabytes). A stdout that stops (a `| less` left paused) holds the pane
// at most the server's ACK_STALL_MS; after that the follower is unpaced, and past
// a backlog limit we drop live frames, catch up from the ring by offset, and say
// what was lost.
import type { PaneRef } from '../../../protocol/ids';
import type { CommandContext } from '../context';
import { EXIT, streamEnded } from '../errors';
import type { Connection } from '../../../client/connection';
import { AckMeter } from '../../../client/ackMeter';
import { exitLine, programOf, shellStatus } from '../../../protocol/exitLabel';
import type { ExitStatus, Pane } from '../../../protocol/model';

/** Bytes queued for stdout before we stop taking live frames and read the ring instead. */
export const FOLLOW_MAX_QUEUED = 8 << 20;
/** Bytes per pty/read batch (base64 of this stays well under the 4 MiB JSON frame limit). */
export const READ_BATCH = 1 << 20;
/**
 * How long a follow may go without its output advancing before it asks the server
 * whether the pane has more than it has been sent (one 1-byte pty/read), and reads
 * it from the ring if so. Live frames are how output normally arrives; this is what
 * keeps a reader from waiting forever when they stop coming for any reason (a catch-up
 * read that failed used to leave it dropping every live frame with no one reading the
 * ring: a stall until Ctrl-C). A second is long beside a frame's trip and short for a
 * person watching; an idle follow costs one small request a second.
 */
export const FOLLOW_CHECK_MS = 1_000;

/** Says what a reader lost: `pane` as the person named it (HOST:N for a joined host's pane, not the local proxy number its frames carry). */
export function gapNote(ctx: CommandContext, pane: number | string, wanted: number, start: number): void {
  ctx.err(`pane: note: pane ${pane} output from ${wanted} to ${start} was dropped from its ring; continuing from ${start}`);
}

/** Reads output from `from` up to the end seen by the first read, writing it to stdout; a gap is said naming the pane `label` (default: as asked). */
export async function drain(ctx: CommandContext, c: Connection, pane: PaneRef | undefined, from: number | undefined, label?: string): Promise<{ pane: number; next: number }> {
  let at = from;
  let end: number | undefined;
  for (;;) {
    const b = await c.call('pty/read', { ...(pane === undefined ? {} : { pane }), ...(at === undefined ? {} : { from: at }), maxBytes: READ_BATCH, encoding: 'base64' });
    // A gap is news only when the caller asked for an offset; by default we start at the oldest byte held.
    if (b.gap && at !== undefined) gapNote(ctx, label ?? remoteKey(pane) ?? b.pane, at, b.streamStart);
    if (b.data.length > 0) await ctx.writeBytes(Buffer.from(b.data, 'base64'));
    pane ??= b.pane;
    // Stop at the end seen first, so a flooding pane cannot keep a one-shot read going forever.
    end ??= b.streamEnd;
    if (b.to >= end || b.to === b.from) return { pane: b.pane, next: b.to };
    at = b.to;
  }
}

/** How a follow ends when its pane's program does: with 0 (the read went well), or with the program's own status (`--status`). */
export interface FollowOptions {
  maxQueued?: number;
  /** Exit with the program's status: its code, 128+N for signal N (as a shell says it), 1 for a pane closed before it ended. */
  status?: boolean;
}

/**
 * The exit status and the stderr line for a follow that ended with its pane: "[make exited 2
 * at 14:03:07]" (the line `pane screen` ends with), or that the pane was closed. A reader of
 * a build log learns how the build ended; before, the follow stopped without a word.
 */
async function endOf(c: Connection, pane: PaneRef, closed: boolean, seen: { exit?: ExitStatus; pane?: Pick<Pane, 'launch' | 'tag'> }): Promise<{ line: string; code: number }> {
  const p = closed ? undefined : await c.call('pane/get', { pane }).catch(() => undefined);
  // A pane closed as its program ended (a shell's `exit`) is gone by now: its exit event said how.
  const exit = p?.exit ?? seen.exit ?? null;
  const who = p ?? seen.pane;
  if (exit === null || who === undefined) return { line: `pane ${pane} was closed`, code: EXIT.failed };
  return { line: exitLine(programOf(who), exit), code: shellStatus(exit) };
}

export async function follow(ctx: CommandContext, c: Connection, pane: PaneRef | undefined, from: number | undefined, o: FollowOptions = {}): Promise<number> {
  const maxQueued = o.maxQueued ?? FOLLOW_MAX_QUEUED;
  let n = -1;
  /** Offset of the next byte stdout should get: everything before it has been queued. */
  let next = 0;
  let queued = 0;
  let behind = false;
  let ended = false;
  let writing: Promise<void> = Promise.resolve();
  let catching: Promise<void> = Promise.resolve();
  let endWith: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (endWith = resolve));

  // Every byte a frame brought is acked once stdout has it, or at once when dropped (a
  // duplicate, or while catching up from the ring): the server waits for all of them.
  const acks = new AckMeter((bytes) => void c.call('pty/ack', { pane: n, bytes }).catch(() => undefined));
  const write = (bytes: Uint8Array, ack: number): void => {
    queued += bytes.byteLength;
    writing = writing.then(() => ctx.writeBytes(bytes)).then(() => {
      queued -= bytes.byteLength;
      acks.parsed(ack);
    });
  };

  /** Whether catchUp is running; a catch-up that stopped early (a failed read) is started again by the check below. */
  let catchingNow = false;

  /** Reads the ring from `next` until caught up with its end, then live frames resume. */
  const catchUp = async (): Promise<void> => {
    catchingNow = true;
    try {
      await readRing();
    } finally {
      catchingNow = false;
    }
  };
  const readRing = async (): Promise<void> => {
    await writing;
    while (!ended) {
      const b = await c.call('pty/read', { pane: n, from: next, maxBytes: READ_BATCH, encoding: 'base64' }).catch(() => undefined);
      if (!b || ended) return; // `behind` stays set: the check reads again
      if (b.gap) gapNote(ctx, remote ?? n, next, b.streamStart);
      if (b.to > next) {
        next = b.to;
        await ctx.writeBytes(Buffer.from(b.data, 'base64'));
      }
      // Frames sent before this reply only carry bytes below b.streamEnd, which we
      // now have; every later frame starts at or past it, so live frames are safe again.
      if (b.to >= b.streamEnd) {
        behind = false;
        return;
      }
    }
  };

  const take = (p: number, offset: number, data: Uint8Array): void => {
    if (p !== n) return;
    if (ended || behind) return acks.parsed(data.byteLength);
    if (offset > next) gapNote(ctx, remote ?? n, next, offset);
    const skip = Math.max(0, next - offset);
    if (skip >= data.byteLength) return acks.parsed(data.byteLength);
    next = offset + data.byteLength;
    write(data.subarray(skip), data.byteLength);
    if (queued > maxQueued) {
      behind = true;
      catching = catchUp();
    }
  };

  /**
   * Every FOLLOW_CHECK_MS: if the output did not advance since the last look and no
   * catch-up is running, ask where the pane's stream ends; bytes past `next` that no
   * frame brought are read from the ring (frames that come later are trimmed by offset).
   */
  let seen = -1;
  const check = async (): Promise<void> => {
    if (ended || n === -1 || catchingNow) return;
    if (next !== seen && !behind) {
      seen = next;
      return;
    }
    const at = next;
    const b = await c.call('pty/read', { pane: n, from: at, maxBytes: 1 }).catch(() => undefined);
    if (!b || ended || catchingNow || next !== at) return;
    if (b.streamEnd > at || behind) {
      behind = true;
      catching = catchUp();
    }
  };

  const finish = (closed: boolean): void => {
    if (ended) return;
    ended = true;
    exitSeen = exits.get(n);
    // Frames sent before the exit event are in; a last read (after the queue and
    // any catch-up) picks up what the server had not pushed yet, skipping nothing.
    void catching
      .then(() => writing)
      .then(() => acks.flush())
      .then(() => (closed ? undefined : drain(ctx, c, n, next, remote).then(() => undefined)))
      .catch(() => undefined)
      .then(() => endOf(c, remote ?? n, closed, { ...(exitSeen ? { exit: exitSeen } : {}), ...(paneSeen ? { pane: paneSeen } : {}) }))
      .then((end) => {
        ctx.err(`pane: ${end.line}`);
        endWith(o.status ? end.code : EXIT.ok);
      })
      .catch(() => endWith(EXIT.ok));
  };

  // Subscribe before attaching, so an exit between the two is not missed.
  // An end that comes before the attach reply names a pane we cannot recognise yet: keep it.
  const endedEarly = new Map<number, boolean>();
  /** How each pane's program ended, as its exit event said (the follow's pane may be closed before we ask). */
  const exits = new Map<number, ExitStatus>();
  let exitSeen: ExitStatus | undefined;
  let paneSeen: Pick<Pane, 'launch' | 'tag'> | undefined;
  // A joined host's pane (HOST:N) ends on its host: its end comes as host/pane naming it so (the local numbers' events are this server's panes).
  const remote = remoteKey(pane);
  let remoteEnd: boolean | undefined;
  // Listening before the subscription's answer comes: an end read with that answer (behind it, in one read) is heard, not dispatched to nobody.
  c.onEvent((event, _rev, data) => {
    if (event === 'host/pane' && remote !== undefined) {
      const h = data as { host?: string; event?: string; id?: string };
      if (h.id !== remote || (h.event !== 'pane/exited' && h.event !== 'pane/closed')) return;
      if (n === -1) remoteEnd = h.event === 'pane/closed';
      else finish(h.event === 'pane/closed');
      return;
    }
    if (event !== 'pane/exited' && event !== 'pane/closed') return;
    const d = data as { pane?: number | { n?: number }; exit?: ExitStatus };
    const which = typeof d.pane === 'number' ? d.pane : d.pane?.n;
    if (which === undefined) return;
    if (event === 'pane/exited' && d.exit && (n === -1 || which === n)) exits.set(which, d.exit);
    if (n === -1) endedEarly.set(which, event === 'pane/closed');
    else if (which === n) finish(event === 'pane/closed');
  });
  const snapshot = await c.call('events/subscribe', { families: remote === undefined ? ['pane'] : ['pane', 'host'] });
  // Frames may overtake the attach reply: hold them until we know the pane and offset.
  let early: [number, number, Uint8Array][] | undefined = [];
  c.onOutput((p, offset, data) => {
    if (early) early.push([p, offset, data]);
    else take(p, offset, data);
  });
  c.onClose((reason) => {
    if (ended) return;
    ended = true;
    ctx.err(streamEnded(reason));
    endWith(EXIT.failed);
  });

  // flowStart max: a follower writes to a file or pipe and acks as fast as that takes the bytes; a
  // Ctrl-C drawn late is no concern of its (a window's is), so it need not probe up from the smallest window.
  const r = await c.call('pty/attach', { ...(pane === undefined ? {} : { pane }), mode: 'from', ...(from === undefined ? {} : { from }), flowControl: true, flowStart: 'max' });
  n = r.pane;
  paneSeen = snapshot.panes.find((x) => x.n === n && x.host === c.host);
  if (r.gap && from !== undefined) gapNote(ctx, remote ?? n, from, r.streamStart);
  next = r.from;
  const held = early;
  early = undefined;
  for (const [p, offset, data] of held) take(p, offset, data);
  if (endedEarly.has(n)) finish(endedEarly.get(n) === true);
  else if (remoteEnd !== undefined) finish(remoteEnd);
  else if (snapshot.panes.find((x) => x.n === n && x.host === c.host)?.state === 'exited') finish(false);
  else if (remote !== undefined) {
    // Ended there before we subscribed: the host's pane says so itself.
    const there = await c.call('pane/get', { pane: remote }).catch(() => undefined);
    if (there?.state === 'exited') finish(false);
  }

  // Ctrl-C is the documented way to stop following: a normal end, exit 0.
  const onSigint = (): void => {
    ended = true;
    endWith(EXIT.ok);
  };
  process.once('SIGINT', onSigint);
  const checker = setInterval(() => void check(), FOLLOW_CHECK_MS);
  try {
    return await done;
  } finally {
    acks.reset();
    clearInterval(checker);
    process.removeListener('SIGINT', onSigint);
  }
}

/** `HOST:N` as the server names a joined host's pane in host/pane events, when `pane` is written so; else undefined. */
export function remoteKey(pane: PaneRef | undefined): string | undefined {
  const m = typeof pane === 'string' ? /^([^:\s]+):0*(\d+)$/.exec(pane) : null;
  return m ? `${m[1]}:${m[2]}` : undefined;
}
