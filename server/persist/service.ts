// The daemon's persistence: takes the single-writer lock on the state dir, brings the
// last state back (newest good generation + journals), then journals every structural
// change (batched for a few ms, written off the loop) and writes snapshot generations
// (structure here, scrollback on the screen worker) on a timer, on demand and at stop.
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { Pane, Session } from '../../kits/protocol/model';
import { DurabilityConfigSchema, type DurabilityConfig, type Generation, type StateFile, STATE_VERSION } from '../../kits/protocol/snapshot';
import { socketAnswers } from '../../kits/node/endpoint';
import { checkStateDir } from '../../kits/node/paths';
import { TickWhileNeeded } from '../../kits/node/tickWhileNeeded';
import type { PaneServer } from '../paneServer';
import type { Services } from '../services';
import { GenerationStore, snapName } from './generations';
import { JournalWriter, type JournalRecord } from './journal';
import { loadState } from './loader';
import { entryFault, readOwnFile, setAside, writeOwnFile } from './stateFiles';
import { agentsPart } from './agentsPart';
import type { PersistDeps, PersistPart } from './parts';
import { resurrect } from './resurrect';
import { namesItself } from '../model/paneTracker';

/**
 * The lock counts as abandoned when its mtime is this old; proper-lockfile refreshes it
 * every half of this. Long, because the refresh is a write to the disk and a wakeup of
 * an otherwise idle daemon (every 1.5 s at the 3 s this was). A daemon killed with -9
 * does not hold its state that long: the next one finds the socket daemon.socket names
 * answering no more, and takes the lock at once (lockHolderGone).
 */
export const LOCK_STALE_MS = 60_000;
/** Tries to take a held lock, LOCK_RETRY_MS apart: long enough for a daemon that is stopping to let go, short enough to refuse a live one promptly. */
const LOCK_TRIES = 16;
const LOCK_RETRY_MS = 250;
/**
 * A lock younger than this is not judged by its holder's socket: a daemon that took it
 * a moment ago may not have named its socket yet (daemon.socket still names the one
 * before). Shorter than LOCK_TRIES × LOCK_RETRY_MS, so a kill just after a refresh is
 * still taken over within the tries.
 */
const LOCK_FRESH_MS = 2_000;
/**
 * Changes are gathered this long before they are journaled: a burst of changes to one
 * pane or session becomes one record (the dirty sets dedupe), so a stream of requests
 * pays for a journal write every few ms, not per request. A crash loses at most this.
 */
const JOURNAL_BATCH_MS = 5;
/** A journal this long is folded into a fresh snapshot generation (replay stays quick). */
const JOURNAL_ROTATE_RECORDS = 5_000;
/**
 * How often the history of panes that printed is flushed to disk between snapshots
 * (full blocks not written yet, and the open block with the screen), each flush
 * named in the journal: what a kill -9 can lose of a pane's history. Short enough
 * to be "a few seconds"; long enough that a flooding pane costs one small write
 * every tick, not one per block (the writes run on the screen worker and the
 * thread pool, never the main loop). Full blocks are written at the tick after
 * they fill, not the moment they fill: a block on disk restores nothing until a
 * journal record names it (so the loss bound is the tick either way), and `yes`
 * fills thousands of blocks a second, nearly all dropped past the history limit
 * before the tick, so writing each as it filled would create (and later prune)
 * thousands of files a second to keep a few.
 */
export const HISTORY_FLUSH_MS = 2_000;

export interface PersistOptions {
  dir: string;
  config?: Partial<DurabilityConfig>;
  warn?: (m: string) => void;
  /** Other families' state saved beside the sessions (default: the agents' live state). */
  parts?: readonly PersistPart[];
}

/**
 * A pane as journaled: a stand-in's words borrowed from its host (remote: true) are
 * the host's, borrowed again when its link comes back, so they are not saved (a host
 * that churns its vocabulary would otherwise write the whole pane at every change).
 */
export function withoutBorrowedWords<P extends { vocabulary: Pane['vocabulary']; tag: Pane['tag'] }>(p: P): P {
  const borrowed = new Set(p.vocabulary.filter((c) => c.remote).map((c) => c.name));
  if (borrowed.size === 0) return p;
  return { ...p, vocabulary: p.vocabulary.filter((c) => !c.remote), tag: { ...p.tag, commands: p.tag.commands.filter((w) => !borrowed.has(w)) } };
}

/** Reads $XDG_CONFIG_HOME/pane/durability.json; a bad file is reported and the defaults used. */
export function loadDurabilityConfig(file: string, warn: (m: string) => void): DurabilityConfig {
  let raw: unknown = {};
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') warn(`${file}: ${(e as Error).message}; using the defaults`);
  }
  const r = DurabilityConfigSchema.safeParse(raw);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  warn(`${file}: ${i.path.join('.') || '(file)'}: ${i.message}; using the defaults`);
  return DurabilityConfigSchema.parse({});
}

/**
 * Where a shell pane is now: the model's cwd, unless the shell has moved since and the
 * model was not told (the kernel knows, on Linux). Live cwd tracking (OSC 7) keeps the
 * model's own field current; this is the fallback at each save.
 */
let selfExe: string | undefined;
function liveCwd(p: Pane): string {
  if (p.pid === null || p.attrs['default-shell'] !== '1' || process.platform !== 'linux') return p.cwd;
  try {
    selfExe ??= fs.realpathSync(process.execPath);
    // Between fork and exec the child is still this server's image, in this server's cwd: not the shell's yet.
    if (fs.readlinkSync(`/proc/${p.pid}/exe`) === selfExe) return p.cwd;
    return fs.readlinkSync(`/proc/${p.pid}/cwd`);
  } catch {
    return p.cwd;
  }
}

/** Bytes of daemon.socket read at most: a socket's path (PATH_MAX). */
const SOCKET_FILE_MAX = 4096;

/** The first line of a small file of the state directory (readOwnFile: never through a link nor waiting on a FIFO); null when there is none. */
function readLine(file: string, max: number): string | null {
  try {
    return readOwnFile(file, max, { truncate: true }).toString().split('\n')[0] ?? null;
  } catch {
    return null; // none written yet (or not a file: the holder says nothing then)
  }
}

/** Who holds the state's lock, as its files say: the pid in daemon.pid ('?' unknown) and the socket in daemon.socket (null: none named). */
export function readLockHolder(dir: string): { pid: string; socket: string | null } {
  const pid = readLine(path.join(dir, 'daemon.pid'), 32);
  const socket = readLine(path.join(dir, 'daemon.socket'), SOCKET_FILE_MAX);
  return { pid: pid !== null && /^\d+$/.test(pid) ? pid : '?', socket: socket && path.isAbsolute(socket) ? socket : null };
}

/** How long ago the lock was made or last refreshed (its mtime); 0 when it cannot be read. */
function lockAgeMs(lockPath: string): number {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Whether the daemon holding the lock is gone for certain: the socket it named answers
 * no more. When that socket is `ownSocket`, this daemon listens there now, which it
 * does only after finding nothing answering there (endpoint.ts clearStale). A holder
 * that named no socket (an older daemon, one in a test without a socket) is not
 * judged: its lock is waited out (LOCK_STALE_MS).
 */
export async function lockHolderGone(holder: { socket: string | null }, ownSocket: string | null): Promise<boolean> {
  if (holder.socket === null) return false;
  if (holder.socket === ownSocket) return true;
  return !(await socketAnswers(holder.socket));
}

export class Persistence {
  readonly config: DurabilityConfig;
  readonly store: GenerationStore;
  private journal: JournalWriter | null = null;
  private gen = 0;
  private dirtyPanes = new Set<number>();
  private dirtySessions = new Set<string>();
  private dirtyExtra = new Set<string>();
  private flushQueued = false;
  private changedSinceSnapshot = false;
  /** Every snapshotEveryMs while something changed since the last snapshot: an unchanged state makes no wakeups. */
  private snapshots: TickWhileNeeded | null = null;
  private snapshotting: Promise<Generation> | null = null;
  /** Panes that printed since their history was last flushed. */
  private historyDirty = new Set<number>();
  /** Every HISTORY_FLUSH_MS while a pane printed since its last flush: quiet panes make no wakeups. */
  private historyTicks: TickWhileNeeded | null = null;
  private historyFlushing: Promise<void> | null = null;
  /** History files the current journal names (flushed since the last snapshot), by pane: kept by prune. */
  private liveRefs = new Map<number, string[]>();
  /**
   * The slot (a or b) of each pane's flush file the journal names now: the next flush
   * writes the other, so a kill between a flush's write and its journal record leaves
   * the file the last record names as it was (blocks and rows that match).
   */
  private slots = new Map<number, 'a' | 'b'>();
  private release: (() => Promise<void>) | null = null;
  private unlisten: (() => void) | null = null;
  private closed = false;
  readonly warn: (m: string) => void;

  readonly server: PaneServer;
  readonly parts: readonly PersistPart[];
  /** Takes it off the services it was opened on (open sets it; close calls it). */
  private detach: () => void = () => undefined;

  private constructor(
    readonly deps: PersistDeps,
    readonly dir: string,
    o: PersistOptions,
  ) {
    this.server = deps.server;
    const say = o.warn ?? ((m) => process.stderr.write(`pane: state: ${m}\n`));
    // What is set aside or skipped is a refusal of the state door: in the log, and in /pane/log as `- refused state directory: …`.
    this.warn = (m) => {
      say(m);
      if (/set aside|skipped|not replayed/.test(m)) deps.server.publish('client/refused', { door: 'state directory', reason: m });
    };
    this.config = DurabilityConfigSchema.parse(o.config ?? {});
    this.store = new GenerationStore(dir, this.warn);
    this.parts = o.parts ?? [agentsPart];
  }

  /** Locks `dir`, loads and (if configured) resurrects; resolves with the sessions brought back. */
  static async open(services: Services, o: PersistOptions): Promise<{ persistence: Persistence; restored: Session[] }> {
    // The user's own directory, 0700, not a link: its journal starts programs as the person when replayed.
    const wrong = checkStateDir(o.dir);
    if (wrong) throw new Error(wrong);
    const server = services.server;
    const p = new Persistence({ server, agents: () => services.agents, config: () => services.config }, o.dir, o);
    await p.lock();
    let restored: Session[] = [];
    try {
      p.store.sweep();
      const state = p.load();
      for (const part of p.parts) if (state.extra[part.family] !== undefined) part.load(p.deps, state.extra[part.family]);
      if (p.config.resurrect && state.sessions.length) restored = await resurrect(p.deps, state, { dir: p.dir, config: p.config, keepIds: true }, p.warn);
      p.gen = p.store.lastGen();
      await p.rotate(); // a fresh generation: the journal starts with the whole state as it now is
    } catch (e) {
      await p.release?.();
      throw e;
    }
    p.unlisten = server.listen((event, data) => p.note(event, data));
    p.snapshots = new TickWhileNeeded(
      p.config.snapshotEveryMs,
      () => p.changedSinceSnapshot,
      () => void p.snapshot().catch((e: Error) => p.warn(`snapshot failed: ${e.message}`)),
    );
    p.historyTicks = new TickWhileNeeded(HISTORY_FLUSH_MS, () => p.historyDirty.size > 0, () => void p.flushHistory());
    p.snapshots.poke();
    p.historyTicks.poke();
    server.onBeforeStop(() => p.close());
    services.persistence = p;
    p.detach = () => {
      if (services.persistence === p) services.persistence = undefined;
    };
    return { persistence: p, restored };
  }

  private async lock(): Promise<void> {
    const lockPath = path.join(this.dir, 'daemon.lock');
    const pidFile = path.join(this.dir, 'daemon.pid');
    // proper-lockfile's lock is a directory it makes; anything else there (a file, a link, a FIFO) would keep
    // every daemon out, or be followed. A live daemon's lock is always a directory of ours, so this never moves one.
    try {
      const fault = entryFault(fs.lstatSync(lockPath), 'dir');
      if (fault) setAside(this.dir, 'daemon.lock', fault, this.warn, 'a fresh lock is taken');
    } catch {
      // no lock yet
    }
    const take = () =>
      lockfile.lock(this.dir, {
        lockfilePath: lockPath,
        stale: LOCK_STALE_MS,
        onCompromised: (e) => this.warn(`lost the lock on ${this.dir} (${e.message}); another daemon may be writing the same state`),
      });
    for (let tries = 1; ; tries++) {
      try {
        this.release = await take();
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
        const holder = readLockHolder(this.dir);
        if (tries >= LOCK_TRIES) throw new Error(`the pane state in ${this.dir} is in use by another pane daemon (pid ${holder.pid}); stop it with \`pane stop\`, or give this one another state directory`);
        // Held: by a daemon killed with -9 (its lock not stale for a while yet), one stopping, or a live one.
        if (lockAgeMs(lockPath) > LOCK_FRESH_MS && (await lockHolderGone(holder, this.server.socketPath))) {
          try {
            fs.rmdirSync(lockPath); // as proper-lockfile removes a stale lock
          } catch {
            // gone meanwhile, or not the empty directory a lock is: the next try says which
          }
          continue;
        }
        await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
      }
    }
    try {
      writeOwnFile(this.dir, 'daemon.pid', `${process.pid}\n`, this.warn);
      // And the socket: a daemon started after this one is killed knows it gone by that socket's silence.
      writeOwnFile(this.dir, 'daemon.socket', `${this.server.socketPath ?? ''}\n`, this.warn);
    } catch (e) {
      // Only what a refused second daemon names and judges by; the lock itself is what keeps the state single-writer.
      this.warn(`cannot write ${pidFile} or daemon.socket beside it: ${(e as Error).message}; a second daemon will not be able to name this one, nor take the state at once after it is killed`);
    }
  }

  /** The newest good generation with every later journal replayed; an empty state only when there is nothing at all. */
  load(): StateFile {
    return loadState(this.store, this.server.host, this.warn);
  }

  /** The structural state now (no scrollback): plain data, safe to keep while the model changes. */
  capture(): StateFile {
    const s = this.server;
    const sessions = [...s.sessions.values()];
    const panes = sessions.flatMap((x) => s.panesOf(x)).map((p) => withoutBorrowedWords(this.savedPane(p)));
    const extra: Record<string, unknown> = {};
    for (const part of this.parts) extra[part.family] = part.save(this.deps);
    return structuredClone({ version: STATE_VERSION, savedAt: Date.now(), host: s.host, sessions, panes, extra });
  }

  /** Each pane's last journal record as written in this generation: a record equal to it is not written again. */
  private lastPaneRecord = new Map<number, string>();

  private savedPane(p: Pane) {
    const resume = this.parts.map((x) => x.resumeOf?.(this.deps, p)).find((r) => r !== undefined);
    const autoName = namesItself(this.server, p.n);
    return { ...p, cwd: liveCwd(p), address: this.server.address(p.n), ...(resume ? { resume } : {}), ...(autoName ? { autoName } : {}) };
  }

  private paneRecord(p: Pane): JournalRecord {
    const { address: _a, resume, autoName, ...pane } = this.savedPane(p);
    return { k: 'pane', v: withoutBorrowedWords(pane), ...(resume ? { resume } : {}), ...(autoName ? { autoName } : {}) };
  }

  /** Marks what an event touched; the journal gets the entities' new state within JOURNAL_BATCH_MS. */
  private note(event: string, data: unknown): void {
    const d = data as { pane?: number | { n: number }; session?: string | { id: string } };
    const fam = event.slice(0, event.indexOf('/'));
    if (event === 'pane/output') {
      // New history is flushed at the next HISTORY_FLUSH_MS tick, and worth a snapshot at the next tick of its timer.
      this.changed();
      if (typeof d.pane === 'number') {
        this.historyDirty.add(d.pane);
        this.historyTicks?.poke();
      }
      return;
    }
    if (event === 'pane/executed') return;
    if (fam === 'pane' || fam === 'layout' || fam === 'focus' || fam === 'session' || fam === 'floating') {
      if (d.pane !== undefined) this.dirtyPanes.add(typeof d.pane === 'number' ? d.pane : d.pane.n);
      if (d.session !== undefined) this.dirtySessions.add(typeof d.session === 'string' ? d.session : d.session.id);
    } else {
      for (const part of this.parts) if (part.families.includes(fam)) this.dirtyExtra.add(part.family);
    }
    if (this.dirtyPanes.size || this.dirtySessions.size || this.dirtyExtra.size) this.queueFlush();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setTimeout(() => this.flush(), JOURNAL_BATCH_MS);
  }

  /** Appends this turn's changes to the journal (the write itself happens on the thread pool). */
  flush(): void {
    this.flushQueued = false;
    if (!this.journal || this.closed) return;
    const s = this.server;
    const recs: JournalRecord[] = [];
    /** The JSON of a record made while comparing it with the last (a pane's), written as it is. */
    const json: (string | undefined)[] = [];
    for (const id of this.dirtySessions) {
      const x = s.sessions.get(id);
      recs.push(x ? { k: 'session', v: x } : { k: 'session-gone', id });
    }
    for (const n of this.dirtyPanes) {
      const p = s.panes.get(n);
      if (!p) {
        this.lastPaneRecord.delete(n);
        recs.push({ k: 'pane-gone', n });
        continue;
      }
      // Coalesced: a change that leaves the saved pane as it was (a stand-in's borrowed
      // words churning on its host, which are never saved) writes nothing.
      const rec = this.paneRecord(p);
      const text = JSON.stringify(rec);
      if (this.lastPaneRecord.get(n) === text) continue;
      this.lastPaneRecord.set(n, text);
      json[recs.length] = text;
      recs.push(rec);
    }
    for (const fam of this.dirtyExtra) {
      const part = this.parts.find((x) => x.family === fam);
      if (part) recs.push({ k: 'extra', family: fam, v: part.save(this.deps) });
    }
    this.dirtySessions.clear();
    this.dirtyPanes.clear();
    this.dirtyExtra.clear();
    if (!recs.length) return;
    this.journal.append(recs, json);
    this.changed();
    if (this.journal.appended > JOURNAL_ROTATE_RECORDS) void this.snapshot().catch((e: Error) => this.warn(`snapshot failed: ${e.message}`));
  }

  /** Something a snapshot would save changed: one is taken at the next tick of its timer. */
  private changed(): void {
    this.changedSinceSnapshot = true;
    this.snapshots?.poke();
  }

  /** Starts generation gen+1: a new journal that opens with the whole state, so replaying it needs nothing older. */
  private async rotate(): Promise<{ gen: number; state: StateFile }> {
    this.flush();
    const state = this.capture();
    const gen = ++this.gen;
    this.lastPaneRecord.clear();
    const old = this.journal;
    this.journal = new JournalWriter(this.dir, gen);
    // Everything as just captured (a copy: the dump is encoded over a few turns of the event
    // loop, and what changes meanwhile is journalled after it). Each pane's live cwd is read
    // from /proc once per generation, not twice.
    const dump: JournalRecord[] = [{ k: 'reset' }];
    for (const x of state.sessions) dump.push({ k: 'session', v: x });
    for (const { address: _a, resume, autoName, ...pane } of state.panes) dump.push({ k: 'pane', v: pane, ...(resume ? { resume } : {}), ...(autoName ? { autoName } : {}) });
    for (const part of this.parts) dump.push({ k: 'extra', family: part.family, v: state.extra[part.family] });
    // The reset says how many records its dump holds: a dump cut short is never applied over a good state.
    dump[0] = { k: 'reset', records: dump.length - 1 };
    const dumped = this.journal.appendSliced(dump);
    this.journal.appended = 0;
    this.changedSinceSnapshot = false;
    await dumped;
    await old?.close();
    return { gen, state };
  }

  /**
   * Writes the history of every pane that printed since the last flush: the screen
   * worker writes its full blocks not on disk yet and the open block with the
   * screen (`l<GEN>-UUID-<a|b>.gz`, the slot the journal does not name now), off the
   * main loop; then one journal record per pane names the files, on disk before the
   * next flush begins, so a kill -9 loses at most HISTORY_FLUSH_MS of history.
   * Skipped while a snapshot runs (it saves every pane's history itself) or a flush does.
   */
  flushHistory(): Promise<void> {
    if (this.closed || this.snapshotting || this.historyFlushing || this.historyDirty.size === 0) return this.historyFlushing ?? Promise.resolve();
    const panes = [...this.historyDirty];
    this.historyDirty.clear();
    const gen = this.gen;
    this.historyFlushing = Promise.all(
      panes.map(async (n) => {
        const p = this.server.panes.get(n);
        if (!p || !this.server.terminals.has(n)) return;
        const lines = this.historyLines(p);
        if (lines === 0) return;
        try {
          const slot = this.slots.get(n) === 'a' ? 'b' : 'a';
          const r = await this.server.screen.saveScrollback(n, path.join(this.dir, 'scrollback', `l${gen}-${p.uuid}-${slot}.gz`), lines, `h-${p.uuid}`);
          if (this.closed || !this.journal || this.gen !== gen) return;
          // Unchanged since its last save, the worker names that save's file again: that slot stays the named one.
          const named = /-([ab])\.gz$/.exec(r.file)?.[1] as 'a' | 'b' | undefined;
          if (r.file.startsWith(`l${gen}-`) && named) this.slots.set(n, named);
          this.liveRefs.set(n, [r.file, ...r.blocks]);
          this.journal.append([{ k: 'history', n, uuid: p.uuid, scrollback: { file: r.file, ...(r.blocks.length ? { blocks: r.blocks } : {}), savedAt: Date.now(), lines: r.lines, bytes: r.bytes } }]);
        } catch (e) {
          // Its screen closed meanwhile, or the disk refused: the next tick (or snapshot) tries again.
          if (this.server.panes.has(n)) {
            this.historyDirty.add(n);
            this.historyTicks?.poke();
          }
          if (!/closed|no screen/.test((e as Error).message)) this.warn(`pane ${n}: history not flushed: ${(e as Error).message}`);
        }
      }),
    )
      // The records on disk before the next flush may write the other slot over the one they replaced.
      .then(() => this.journal?.drained())
      .then(() => {
        this.historyFlushing = null;
      });
    return this.historyFlushing;
  }

  /** Writes a generation: structure now, each terminal's history on the screen worker, then the file atomically. */
  snapshot(): Promise<Generation> {
    this.snapshotting ??= this.writeSnapshot().finally(() => {
      this.snapshotting = null;
    });
    return this.snapshotting;
  }

  private async writeSnapshot(): Promise<Generation> {
    // A flush under way finishes first: it writes through the same screens, and names files in the journal being rotated.
    await this.historyFlushing;
    const { gen, state } = await this.rotate();
    // The new journal names no flushed history yet; this generation saves every pane's.
    this.liveRefs.clear();
    this.slots.clear();
    this.historyDirty.clear();
    let wrote = 0;
    await Promise.all(
      state.panes.map(async (p) => {
        const lines = this.historyLines(p);
        if (lines === 0 || !this.server.terminals.has(p.n)) return;
        const file = `g${gen}-${p.uuid}.gz`;
        try {
          // Full history blocks are written once and named again by later generations (docs/decisions/021).
          const r = await this.server.screen.saveScrollback(p.n, path.join(this.dir, 'scrollback', file), lines, `h-${p.uuid}`);
          p.scrollback = { file: r.file, ...(r.blocks.length ? { blocks: r.blocks } : {}), savedAt: Date.now(), lines: r.lines, bytes: r.bytes };
          wrote += r.wrote;
        } catch (e) {
          this.warn(`pane ${p.address}: history not saved: ${(e as Error).message}`);
        }
      }),
    );
    const file = path.join(this.dir, snapName(gen));
    const bytes = await this.store.write(gen, state);
    await this.store.prune(new Set([...this.liveRefs.values()].flat()));
    const history = state.panes.reduce((a, p) => a + (p.scrollback?.bytes ?? 0), 0);
    return { gen, savedAt: state.savedAt, sessions: state.sessions.length, panes: state.panes.length, bytes: bytes + history, wrote: bytes + wrote, file };
  }

  /** Lines of history kept for a pane: the configured number, none when opted out or secret. */
  historyLines(p: Pane): number {
    const a = p.attrs;
    if (a.scrollback === 'off' || a.secret === '1' || a.secret === 'true') return 0;
    return this.config.scrollbackLines;
  }

  /** The last snapshot, then the lock let go. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.snapshots?.stop();
    this.historyTicks?.stop();
    this.unlisten?.();
    try {
      await this.snapshotting?.catch(() => undefined);
      await this.snapshot();
    } catch (e) {
      this.warn(`final snapshot failed: ${(e as Error).message}`);
    }
    this.closed = true;
    await this.journal?.close();
    this.journal = null;
    this.detach();
    await this.release?.().catch(() => undefined);
  }
}
