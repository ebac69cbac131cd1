// What a terminal pane is doing right now, kept live on the model: its cwd (OSC 7
// when the shell reports it, else /proc of the foreground group), the tag name
// (foreground command or its title, else the directory), and whether closing it
// would end anything but an idle shell. Read from the OS after output and a few
// times once it stops, never polled.
import os from 'node:os';
import path from 'node:path';
import type { Pane } from '../../kits/protocol/model';
import type { PaneServer } from '../paneServer';
import { isDirOffMounts, statOffMounts } from '../../kits/node/safeFile';
import { setTag } from './paneOps';
import { launcherOf } from '../../kits/node/sandboxHelper';
import { newestChildCommand, processInfo } from '../pty/nodePtyPort';
import { waitsForEnter } from './enterToRun';
import { programOf } from '../../kits/protocol/exitLabel';
import { clipTail, tildePath } from '../../kits/protocol/shown';

/**
 * After output, wait this long before looking at the foreground again: a program
 * starting or ending prints, so its name follows within this; a flood costs one
 * look (a few /proc reads) per pane per interval.
 */
export const TRACK_MS = 250;
/**
 * Looks again once the output has stopped, counted from the last output. A shell
 * forks the job it was given after echoing its line, and a job can exec another
 * program, neither printing; when that comes after the look at TRACK_MS (a
 * loaded machine, a job that sleeps before it execs), the window (which follows
 * only published changes) kept the old name until the next output. Two looks
 * cover it without polling a quiet pane.
 */
export const SETTLE_LOOKS_MS: readonly number[] = [1_000, 4_000];
/** Longest directory a tag name shows; longer ones keep their tail ("…/share/doc"). */
const TAG_DIR_MAX = 40;

/** Program names that are shells: idle when they hold the foreground, named by their directory. */
const SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ash', 'ksh', 'mksh', 'tcsh', 'csh', 'yash', 'nu', 'elvish', 'xonsh']);

export function isShell(program: string): boolean {
  return SHELLS.has(path.basename(program).replace(/^-/, ''));
}

/** The argv a pane was launched with, as a person wrote it: a sandboxed pane's own, not its launcher's sh. */
function launchedArgv(launch: Pane['launch']): readonly string[] {
  if (!launch) return [];
  return launcherOf(launch)?.argv ?? [launch.program, ...launch.args];
}

/** The program a pane was launched with, as a person names it: a sandboxed pane's own program, not its launcher's sh. */
function launchedProgram(launch: Pane['launch']): string {
  return launchedArgv(launch)[0] ?? '';
}

/** elvish's flags that take the next argument as their value (`-rc FILE`, `-log FILE`, `-sock FILE`, `-db FILE`). */
const ELVISH_VALUE_FLAGS = new Set(['rc', 'log', 'sock', 'db', 'deprecation-level']);

/** Shell options that take the next argument as their value (bash, zsh, ksh; fish's --init-command), so it is not a script. */
const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file', '--init-command']);

/**
 * Whether argv starts a shell that waits at its prompt: not one given a command (`sh -c CMD`,
 * `bash -lc CMD`, fish's and nushell's `--command(s)`) or a script to run. Those run their
 * command in their own process group (a shell without a prompt has no job control), so the
 * group holding the terminal is the shell's for as long as the command runs: taken for an
 * idle prompt, a pane running `sh -c 'make'` was named by its directory and closed without
 * asking. An option this does not know, read as a script, makes the pane count as busy: a
 * close then asks once too often, never once too few.
 */
export function interactiveShell(argv: readonly string[]): boolean {
  if (argv.length === 0 || !isShell(argv[0]!)) return false;
  const name = path.basename(argv[0]!).replace(/^-/, '');
  const fish = name === 'fish';
  // elvish's flags are words after one dash or two (Go's flag package): -norc is not a cluster holding c.
  const elvish = name === 'elvish';
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (elvish ? /^--?c(=true)?$/.test(a) : a === '--command' || a === '--commands' || a.startsWith('--command=') || /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) return false;
    if (a === '-' || a === '--') return i === argv.length - 1; // operands follow: a script
    if (elvish && /^--?[a-z-]+(=.*)?$/.test(a)) {
      if (ELVISH_VALUE_FLAGS.has(a.replace(/^--?/, ''))) i++;
      continue;
    }
    if (SHELL_VALUE_OPTIONS.has(a) || (fish && a === '-C')) {
      i++;
      continue;
    }
    if (!a.startsWith('-') && !a.startsWith('+')) return false; // a script file
  }
  return true;
}

/**
 * A pane launched as a person's own shell (`pane split -- zsh`, `bash --norc`) comes back where
 * its prompt was, not where it was started: its launch with the directory it had. Brought back
 * from its launch record, such a pane opened in the directory it started in and (after a crash
 * or reboot) waited for Enter to run the shell, as a program with effects would. Null for any
 * other launch: a program, a shell given a command or a script, a sandboxed one (its launcher
 * knows its directory), none.
 */
export function shellLaunchAt(launch: Pane['launch'], cwd: string): NonNullable<Pane['launch']> | null {
  if (!launch || launcherOf(launch) || !interactiveShell([launch.program, ...launch.args])) return null;
  return { ...launch, cwd };
}

/** Whether the pane was launched as a shell waiting at a prompt (its launcher's sh is not one: it only waits for the sandboxed program). */
function launchedShell(pane: Pane): boolean {
  return interactiveShell(launchedArgv(pane.launch));
}

/**
 * The program a foreground group runs. When it is the group of a shell that was given a
 * command (`sh -c 'make'`), the shell itself only waits for its children: named by its
 * newest (make). With none, it runs builtins (a `while :; do :; done`, a `read` in the
 * middle of a script): the shell, busy, as closing it ends that script; null (nothing
 * runs) only for pane's own Enter-to-run wrapper, whose `read` waits for Enter before
 * anything runs. The shell's own name where the OS does not tell its children.
 */
function groupCommand(pane: Pane, fg: { pgid: number; command: string }, running: { args: readonly string[] } | undefined): string | null {
  // Its callers have ruled out the idle prompt (the pane's own group, launched to wait at one) already.
  if (fg.pgid !== pane.pid || !isShell(fg.command)) return fg.command;
  const child = newestChildCommand(fg.pgid);
  if (child === undefined) return fg.command;
  // The wrapper is known by what the terminal runs: a restored pane's launch is the program it waits to run.
  return child ?? (waitsForEnter(running) ? null : fg.command);
}

/** What is followed of one terminal pane (PaneServer.tracks holds one per pane). */
export interface Track {
  /** The tag name follows the foreground; off once someone names the pane. */
  autoName: boolean;
  /** The program reported its cwd (OSC 7) since it started: /proc is not consulted then. */
  osc7: boolean;
  /** Titles (OSC 0/2) set by foreground groups other than the idle shell, by pgid. */
  titles: Map<number, string>;
  timer: NodeJS.Timeout | null;
  /** When the pane last printed (performance.now()). */
  lastOutput: number;
  /** The next settle look (SETTLE_LOOKS_MS), and which of them it is. */
  settle: NodeJS.Timeout | null;
  settleStep: number;
}

function trackOf(server: PaneServer, n: number): Track | undefined {
  return server.tracks.get(n);
}

/** Starts tracking a new terminal pane; `autoName` when no name was given for it. */
export function trackPane(server: PaneServer, pane: Pane, autoName: boolean): void {
  server.tracks.set(pane.n, { autoName, osc7: false, titles: new Map(), timer: null, lastOutput: 0, settle: null, settleStep: 0 });
  if (autoName && launchedShell(pane)) pane.tag = { ...pane.tag, name: dirName(server, pane.cwd) };
}

export function forgetPane(server: PaneServer, n: number): void {
  const t = trackOf(server, n);
  if (t?.timer) clearTimeout(t.timer);
  if (t?.settle) clearTimeout(t.settle);
  server.tracks.delete(n);
}

/**
 * The pane's program ended: a tag that followed the foreground names the program that
 * ended, as the exit line does ("[sh exited 2 at …]"), not the last job seen in it (a
 * `sh -c '…; make'` that failed in make read "sleep · exited 2" when make ran between looks).
 * A default shell (no launch) keeps its name.
 */
export function paneExited(server: PaneServer, pane: Pane): void {
  const t = trackOf(server, pane.n);
  // A look still due finds the terminal ended and leaves this name (refreshPane reads only a running one).
  if (!t?.autoName || !pane.launch) return;
  setTag(server, pane, { name: programOf(pane).slice(0, 200) });
}

/** Someone named the pane (pane/tag name): the name stays theirs. */
export function stopAutoName(server: PaneServer, n: number): void {
  const t = trackOf(server, n);
  if (t) t.autoName = false;
}

/** Whether the pane's tag follows its foreground (no one named it): what a save keeps, so a restored pane's name follows again. */
export function namesItself(server: PaneServer, n: number): boolean {
  return trackOf(server, n)?.autoName === true;
}

/** A restored pane whose tag followed its foreground before the save follows it again (it is created under its saved name). */
export function resumeAutoName(server: PaneServer, n: number): void {
  const t = trackOf(server, n);
  if (t) t.autoName = true;
}

/** A new process in the pane (start or rerun): what the last one reported no longer holds. */
export function paneRespawned(server: PaneServer, n: number): void {
  const t = trackOf(server, n);
  if (!t) return;
  t.osc7 = false;
  t.titles.clear();
}

/** Output arrived at `now` (performance.now()): look at the foreground within TRACK_MS, and again as it stays quiet (SETTLE_LOOKS_MS). */
export function noteActivity(server: PaneServer, n: number, now: number): void {
  const t = trackOf(server, n);
  if (!t) return;
  // Per chunk only a store: the first settle look already waiting moves itself on when it fires.
  t.lastOutput = now;
  if (t.settleStep > 0) {
    // Output after the first look: the series starts again, its first look due a full SETTLE_LOOKS_MS[0] from now (once per burst).
    if (t.settle) clearTimeout(t.settle);
    t.settle = null;
    t.settleStep = 0;
  }
  if (!t.settle) settleAfter(server, n, t, SETTLE_LOOKS_MS[0]!);
  if (t.timer) return;
  t.timer = setTimeout(() => {
    t.timer = null;
    const p = server.panes.get(n);
    if (p) refreshPane(server, p);
  }, TRACK_MS);
  t.timer.unref();
}

function settleAfter(server: PaneServer, n: number, t: Track, ms: number): void {
  t.settle = setTimeout(() => {
    t.settle = null;
    if (server.tracks.get(n) !== t) return;
    const quiet = performance.now() - t.lastOutput;
    const due = SETTLE_LOOKS_MS[t.settleStep]!;
    if (quiet < due) return settleAfter(server, n, t, due - quiet); // it printed since: count from then
    const p = server.panes.get(n);
    if (p) refreshPane(server, p);
    t.settleStep += 1;
    const next = SETTLE_LOOKS_MS[t.settleStep];
    if (next !== undefined) settleAfter(server, n, t, Math.max(0, next - quiet));
  }, ms);
  t.settle.unref();
}

/** OSC 7 from the pane's program: `file://host/path`, taken when the host is this machine and the path a directory. */
export function reportCwd(server: PaneServer, pane: Pane, uri: string): void {
  const t = trackOf(server, pane.n);
  const dir = localPath(uri);
  if (!t || dir === null) return;
  t.osc7 = true;
  if (dir !== pane.cwd) {
    pane.cwd = dir;
    server.paneChanged(pane);
  }
  refreshPane(server, pane);
}

/** OSC 0/2: a title set while a program other than the idle shell holds the foreground names the pane. */
export function reportTitle(server: PaneServer, pane: Pane, title: string): void {
  const t = trackOf(server, pane.n);
  const fg = server.terminals.get(pane.n)?.foreground();
  if (t && fg && !(fg.pgid === pane.pid && launchedShell(pane))) t.titles.set(fg.pgid, title);
  refreshPane(server, pane);
}

/**
 * The directory a shell that reports OSC 7 is in when that is not the one it last
 * reported, else null. Its report (the logical path, symlinks as typed) comes with each
 * prompt, so a `cd` on the same line as a job (`cd /tmp && vim`) had not shown: while the
 * job held the terminal the pane stayed in the old directory, and a split beside vim
 * opened there. While a job holds the terminal the shell's own directory is read from
 * /proc; a job's own (`(cd /tmp && exec sleep 9)`) does not move the pane. Only for a
 * shell the pane runs itself: a sandboxed one's pid is its launcher's.
 */
function shellMovedTo(pane: Pane, fgPgid: number): string | null {
  if (fgPgid === pane.pid || pane.pid === null || (pane.launch && launcherOf(pane.launch))) return null;
  const now = processInfo(pane.pid)?.cwd ?? null;
  if (now === null) return null;
  const reported = statOffMounts(pane.cwd);
  return reported !== null && reported !== 'mount' && reported.real === now ? null : now;
}

/** Reads the foreground now and updates cwd (from /proc without OSC 7; with it, only a shell that moved under a job) and the tag name; publishes what changed. */
export function refreshPane(server: PaneServer, pane: Pane): void {
  const t = trackOf(server, pane.n);
  const term = server.terminals.get(pane.n);
  if (!t || !term?.running) return;
  const fg = term.foreground();
  if (!fg) return;
  const idle = fg.pgid === pane.pid && launchedShell(pane);
  for (const pgid of t.titles.keys()) if (pgid !== fg.pgid) t.titles.delete(pgid); // that job ended
  const dir = t.osc7 ? shellMovedTo(pane, fg.pgid) : fg.cwd;
  if (dir !== null && dir !== pane.cwd && isDirOffMounts(dir)) {
    pane.cwd = dir;
    server.paneChanged(pane);
  }
  if (!t.autoName) return;
  // Waiting behind Enter to run, it is named by the program it waits to run.
  const name = idle ? dirName(server, pane.cwd) : (t.titles.get(fg.pgid) ?? groupCommand(pane, fg, term.launch) ?? programOf(pane));
  if (name !== '') setTag(server, pane, { name: name.slice(0, 200) });
}

/**
 * The program closing this pane would end, or null when nothing but an idle
 * shell (or nothing at all) runs in it: what the window asks about before closing.
 */
export function busyProgram(server: PaneServer, pane: Pane): string | null {
  const term = server.terminals.get(pane.n);
  if (pane.state !== 'running' || !term?.running) return null;
  const program = launchedProgram(pane.launch);
  const fg = term.foreground();
  if (fg && fg.pgid === pane.pid && launchedShell(pane)) return null;
  // The launcher's own group is the sandboxed program's: named by that program.
  if (fg && fg.pgid === pane.pid && program !== pane.launch?.program) return path.basename(program);
  return fg ? groupCommand(pane, fg, term.launch) : path.basename(program);
}

/** A directory as a tag shows it: under $HOME as ~/…, long ones by their tail. */
export function dirName(server: PaneServer, dir: string): string {
  return clipTail(tildePath(dir, server.env.HOME ?? os.homedir()), TAG_DIR_MAX);
}

function localPath(uri: string): string | null {
  const m = /^file:\/\/([^/]*)(\/.*)$/s.exec(uri);
  if (!m) return null;
  const host = m[1]!.toLowerCase();
  if (host !== '' && host !== 'localhost' && host !== os.hostname().toLowerCase()) return null; // a shell on another machine (ssh)
  let dir: string;
  try {
    dir = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  return dir.includes('\0') || !isDirOffMounts(dir) ? null : path.normalize(dir);
}

