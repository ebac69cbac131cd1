// Brings saved sessions back: layout, floats, focus, zoom, tags, attrs and cwd; each
// pane's history above a labelled line; shells restarted in their directory; other
// programs behind an "Enter to run" banner unless allowlisted; agents resumed. What
// cannot come back (a directory, a program) is said in the pane, and a shell offered.
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { sessionIdAllowed, type ResumeSpec } from '../../kits/protocol/app';
import type { LaunchSpec, Pane, Session } from '../../kits/protocol/model';
import type { DurabilityConfig, SavedPane, StateFile } from '../../kits/protocol/snapshot';
import { which } from '../../kits/node/which';
import { isDirOffMounts } from '../../kits/node/safeFile';
import { rewrapProgram, unwrapSandbox } from '../agents/sandbox';
import { findApp } from '../config/appFiles';
import { leaves } from '../../kits/layout/tree';
import { bodyOf } from '../model/bodies/registry';
import { createPane, type NewPaneSpec } from '../model/lifecycle';
import { restorePane } from '../model/paneOps';
import { resumeAutoName, shellLaunchAt } from '../model/paneTracker';
import { makeSession, publish, restore, restoredName } from '../model/session';
import { blockSerialized } from '../pty/historyStore';
import { resumeFromSaved } from './agentsPart';
import type { PersistDeps } from './parts';
import type { PaneServer } from '../paneServer';
import { bannerText } from './banner';
import { ENTER_TO_RUN_SCRIPT } from '../model/enterToRun';
import { readOwnFileAsync } from './stateFiles';

export interface ResurrectOptions {
  /** The state dir (scrollback files are under scrollback/). */
  dir: string;
  config: DurabilityConfig;
  /** At start-up: keep session ids and pane numbers, so addresses stay the same. */
  keepIds: boolean;
}

const gunzipAsync = promisify(gunzip);

/** Most bytes of saved history read back per pane: a damaged file must not blow up the server. */
const MAX_HISTORY_BYTES = 64 << 20;
/**
 * Most bytes of one saved history file read (still gzipped): a block of 256 rows is
 * ~2-25 KiB gzipped, a screen with 500 live rows and the open block ~100 KiB.
 */
const MAX_HISTORY_FILE_BYTES = 16 << 20;

/**
 * A pane's saved history as a terminal replays it: its compact blocks (oldest first,
 * each shared with other generations) then the file with the newest rows and the screen.
 * An unreadable block becomes a line saying so; an unreadable file, no history.
 */
async function readHistory(dir: string, p: SavedPane, warn: (m: string) => void): Promise<Buffer | null> {
  if (!p.scrollback) return null;
  const parts: Buffer[] = [];
  let room = MAX_HISTORY_BYTES;
  for (const name of p.scrollback.blocks ?? []) {
    const block = path.join(dir, 'scrollback', name);
    try {
      const text = (await gunzipAsync(await readOwnFileAsync(block, MAX_HISTORY_FILE_BYTES), { maxOutputLength: room })).toString('utf8');
      parts.push(Buffer.from(blockSerialized(text)));
    } catch (e) {
      warn(`pane ${p.address}: a block of its saved history, ${block}, cannot be read (${(e as Error).message}); restoring the rest`);
      parts.push(Buffer.from('\x1b[0;7m[a block of saved history could not be read]\x1b[0m\r\n'));
    }
    room -= parts[parts.length - 1]!.byteLength;
    if (room <= 0) break;
  }
  const file = path.join(dir, 'scrollback', p.scrollback.file);
  try {
    parts.push(await gunzipAsync(await readOwnFileAsync(file, MAX_HISTORY_FILE_BYTES), { maxOutputLength: Math.max(1, room) }));
    return Buffer.concat(parts);
  } catch (e) {
    warn(`pane ${p.address}: its saved history ${file} cannot be read (${(e as Error).message}); restoring without it`);
    return null;
  }
}

interface Plan {
  spec: NewPaneSpec;
  /** An agent resumed: how to start it afresh should the resume fail. */
  resumed?: { fresh: LaunchSpec; form: string[] };
  /** What the pane's launch record says afterwards (the program it stands for). */
  record: LaunchSpec | null;
  notices: string[];
  waiting: boolean;
}

/**
 * Where a saved pane starts on this machine now and what it runs, before any waiting: the
 * part a restart (planPane) and `pane session restore` share. A directory gone starts a
 * shell in the home directory; a program not installed, a shell where it ran; a shell the
 * person named (`pane split -- zsh`), that shell where its prompt was. `gone` says how a
 * directory is missing: "no longer exists" after a restart, "does not exist here" for a
 * file from another machine. A stand-in and a body with no program pass through; an agent's program is checked by its own path.
 */
export interface Comeback {
  cwd: string;
  /** Whether the pane becomes its kind's own shell (launch is then the record it stands for). */
  shell: boolean;
  launch: LaunchSpec | null;
  /** A shell (the default one or one named): it starts again at once, never behind Enter. */
  atOnce: boolean;
  notices: string[];
}

type Comes = Pick<SavedPane, 'kind' | 'cwd' | 'launch' | 'attrs'>;

export function comeback(server: PaneServer, p: Comes, gone: string): Comeback {
  const home = server.env.HOME ?? os.homedir();
  const there = isDirOffMounts(p.cwd);
  const cwd = there ? p.cwd : home;
  const body = bodyOf(p.kind);
  // A stand-in runs nothing here (its host's pane does), nor does a text or widget body: each comes back as it was.
  if (body.standIn || !body.runsProgram) return { cwd, shell: false, launch: p.launch, atOnce: false, notices: [] };
  const isShell = p.attrs['default-shell'] === '1' || p.launch === null;
  const named = isShell || body.agent ? null : shellLaunchAt(p.launch, cwd);
  if (named && which(named.program, named.env?.PATH ?? server.env.PATH)) {
    return { cwd, shell: false, launch: named, atOnce: true, notices: there ? [] : [`the directory ${p.cwd} ${gone}; ${named.program} starts in ${home}`] };
  }
  if (isShell) return { cwd, shell: true, launch: null, atOnce: true, notices: there ? [] : [`the directory ${p.cwd} ${gone}; this is a shell in ${home}`] };
  const launch = p.launch!;
  if (!there) return { cwd, shell: true, launch, atOnce: true, notices: [`the directory ${p.cwd} ${gone}, so nothing was started there; this is a shell in ${home}`, `it ran: ${argvText(launch)}`] };
  // Agent panes get pane's shims on PATH; the agent contributor checks their program itself.
  if (body.agent) return { cwd, shell: false, launch, atOnce: false, notices: [] };
  if (!which(launch.program, launch.env?.PATH ?? server.env.PATH)) {
    return { cwd, shell: true, launch, atOnce: true, notices: [`${launch.program} is not installed here (it ran: ${argvText(launch)}); this is a shell in ${cwd} instead`] };
  }
  // Where it was started, or where it is now should that be gone.
  return { cwd, shell: false, launch: launch.cwd === undefined || isDirOffMounts(launch.cwd) ? launch : { ...launch, cwd }, atOnce: false, notices: [] };
}

/** A pane that refused to start (an agent CLI gone, a limit) still comes back: as a shell where it was, or in the home directory, saying why. */
export function shellInstead(server: PaneServer, cwd: string, e: unknown): { cwd: string; notice: string } {
  const at = isDirOffMounts(cwd) ? cwd : (server.env.HOME ?? os.homedir());
  return { cwd: at, notice: `${(e as Error).message}; this is a shell in ${at} instead` };
}

/** Decides what a saved pane runs now, and what the pane says about it. */
export function planPane(deps: PersistDeps, p: SavedPane, cfg: DurabilityConfig): Plan {
  const server = deps.server;
  const base: NewPaneSpec = { name: p.tag.name, signature: p.signature, kind: p.kind, owner: p.owner, attrs: { ...p.attrs } };
  // A stand-in for a remote pane runs nothing here: it comes back as one, and the hosts service
  // re-binds it when its host joins (server/hosts/standIns.ts; its tag shows the link's state till then).
  const c = comeback(server, p, 'no longer exists');
  if (bodyOf(p.kind).standIn) return { spec: { ...base, cwd: c.cwd, ...(p.launch ? { launch: p.launch } : {}) }, record: p.launch, notices: [], waiting: false };
  if (!bodyOf(p.kind).runsProgram) return { spec: { ...base, cwd: c.cwd }, record: p.launch, notices: [], waiting: false };
  if (c.shell) return { spec: { ...base, cwd: c.cwd, kind: bodyOf(p.kind).shellKind, attrs: { ...base.attrs, 'default-shell': '1' } }, record: c.launch, notices: c.notices, waiting: false };
  const launch = c.launch!;
  if (c.atOnce) return { spec: { ...base, launch }, record: launch, notices: c.notices, waiting: false };
  if (bodyOf(p.kind).agent) {
    const resumed = resumeLaunch(deps, p, launch);
    return {
      spec: { ...base, launch: resumed.launch },
      record: resumed.launch,
      notices: resumed.notice ? [resumed.notice] : [],
      waiting: false,
      ...(resumed.fresh && resumed.form ? { resumed: { fresh: resumed.fresh, form: resumed.form } } : {}),
    };
  }
  if (cfg.restartAtOnce.includes(path.basename(launch.program))) return { spec: { ...base, launch }, record: launch, notices: [], waiting: false };
  const wrapper: LaunchSpec = { ...launch, program: '/bin/sh', args: ['-c', ENTER_TO_RUN_SCRIPT, 'pane-resume', launch.program, ...launch.args] };
  return { spec: { ...base, launch: wrapper }, record: launch, notices: [], waiting: true };
}

/**
 * How long a resumed agent has to fail for its resume to count as failed: a CLI that
 * cannot find the conversation (Gemini drops a session that never got a model reply;
 * an id from another machine) exits non-zero once it has started, which for a Node CLI
 * in its sandbox is 3-10 s on an idle machine and several times that on a loaded one
 * (a whole session of agents coming back at once after a reboot); a person's own quit
 * exits 0, and a crash after a minute of use is not the resume's.
 */
export const RESUME_FAIL_WINDOW_MS = 60_000;

export interface Resumed {
  launch: LaunchSpec;
  notice?: string;
  /** The launch without any resume form, for a fresh start should the resume fail. */
  fresh?: LaunchSpec;
  /** The resume words added (with the id in place), to take out of the started argv on that fresh start. */
  form?: string[];
}

/** An agent's launch with its app's resume form and the recorded session id (or its "last" form), or a fresh start saying so. */
export function resumeLaunch(deps: PersistDeps, p: SavedPane, saved: LaunchSpec): Resumed {
  // The record holds the sandboxed argv; the resume form belongs to the CLI's own (the sandbox is wrapped anew).
  const launch = unwrapSandbox(saved);
  const appId = p.attrs.app;
  let resume: ResumeSpec | undefined;
  try {
    resume = appId ? findApp(deps.config().apps, appId)?.resume : undefined;
  } catch {
    resume = undefined;
  }
  // A relaunch must not stack a second resume form on one a previous resurrection added.
  const base: LaunchSpec = { ...launch, args: stripResume(launch.args, resume) };
  const program = path.basename(launch.program);
  if (!resume) return { launch: base, notice: `${program} has no resume entry in its app file; started afresh` };
  const reported = p.resume?.session;
  // The id is the agent's word (its hooks reported it): into the argv only as the app file's pattern allows, as an argument of its own.
  const id = reported !== undefined && sessionIdAllowed(reported, resume) ? reported : undefined;
  const dropped = reported !== undefined && id === undefined ? `the reported conversation id ${JSON.stringify(reported.slice(0, 80))} is not an id ${program}'s app file allows (resume.idPattern); ` : '';
  const form = id && resume.args ? resume.args.map((a) => (a === '{session}' ? id : a)) : resume.last;
  if (!form) return { launch: base, notice: `${dropped || 'no conversation id was reported by its hooks before the restart; '}started afresh` };
  const args = resume.at === 'start' ? [...form, ...base.args] : [...base.args, ...form];
  const how = id && resume.args ? `conversation ${id}` : 'its latest conversation (no id was reported)';
  return { launch: { ...base, args }, fresh: base, form, ...(id && resume.args ? {} : { notice: `${dropped}resuming ${how}` }) };
}

/** Whether `args` at `i` hold `form` (a `{session}` word matches any one word). */
function holdsAt(args: string[], i: number, form: string[]): boolean {
  return i >= 0 && i + form.length <= args.length && form.every((w, k) => (w.includes('{session}') ? true : args[i + k] === w));
}

/** `args` without the resume form a previous resurrection put there (id'd or "last", at its end or start). */
export function stripResume(args: string[], resume: ResumeSpec | undefined): string[] {
  if (!resume) return [...args];
  for (const form of [resume.args, resume.last]) {
    if (!form) continue;
    const i = resume.at === 'start' ? 0 : args.length - form.length;
    if (holdsAt(args, i, form)) return [...args.slice(0, i), ...args.slice(i + form.length)];
  }
  return [...args];
}

export const argvText = (l: LaunchSpec) => [l.program, ...l.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/** Recreates every session of `state`; returns them in order. Failures of one pane are said in its place, never fatal. */
export async function resurrect(deps: PersistDeps, state: StateFile, o: ResurrectOptions, warn: (m: string) => void): Promise<Session[]> {
  const server = deps.server;
  const histories = new Map<number, Buffer | null>();
  await Promise.all(state.panes.map(async (p) => histories.set(p.n, await readHistory(o.dir, p, warn))));
  const byN = new Map(state.panes.map((p) => [p.n, p]));
  const out: Session[] = [];
  const allNs = state.panes.map((p) => p.n).sort((a, b) => a - b);
  // Numbers stay only when none is taken yet: a restore beside live panes gets fresh ones.
  const keepNs = o.keepIds && allNs.every((n) => n >= server.peekN && !server.panes.has(n));
  const order = keepNs ? allNs : null;
  const created = new Map<number, Pane>();
  const plans: { saved: SavedPane; session: Session }[] = [];
  for (const saved of state.sessions) {
    const keepId = o.keepIds && !server.sessions.has(saved.id);
    const s = makeSession(server, restoredName(server, saved.name), saved.viewport, keepId ? { id: saved.id, createdAt: saved.createdAt } : undefined);
    out.push(s);
    for (const n of [...leaves(saved.layout), ...saved.floating.map((f) => f.pane)]) {
      const p = byN.get(n);
      if (p) plans.push({ saved: p, session: s });
      else warn(`session ${saved.name}: its layout names pane ${n}, which the snapshot does not hold; left out`);
    }
  }
  if (order) plans.sort((a, b) => a.saved.n - b.saved.n);
  for (const { saved, session } of plans) {
    if (order) server.reserveN(saved.n);
    // The agents part is journalled at each new hook session; the pane's record may be older.
    const resume = bodyOf(saved.kind).agent ? (resumeFromSaved(state.extra.agents, saved.n, saved.attrs.agent) ?? saved.resume) : saved.resume;
    created.set(saved.n, startPane(deps, session, resume ? { ...saved, resume } : saved, o.config, histories.get(saved.n) ?? null, warn));
  }
  for (let i = 0; i < state.sessions.length; i++) {
    const saved = state.sessions[i]!;
    const s = out[i]!;
    publish(server, restore(s, saved, (n) => created.get(n)?.n));
  }
  return out;
}

function startPane(deps: PersistDeps, session: Session, saved: SavedPane, cfg: DurabilityConfig, history: Buffer | null, warn: (m: string) => void): Pane {
  const server = deps.server;
  let plan = planPane(deps, saved, cfg);
  let pane: Pane;
  try {
    pane = createPane(server, session, plan.spec, { cols: saved.cols, rows: saved.rows });
  } catch (e) {
    const instead = shellInstead(server, saved.cwd, e);
    plan = { spec: { name: saved.tag.name, owner: saved.owner, cwd: instead.cwd, attrs: { ...saved.attrs, 'default-shell': '1' } }, record: saved.launch, notices: [instead.notice], waiting: false };
    warn(`pane ${saved.address}: ${(e as Error).message}`);
    pane = createPane(server, session, plan.spec, { cols: saved.cols, rows: saved.rows });
  }
  restorePane(server, pane, { launch: plan.record, name: saved.tag.name, user: saved.tag.user });
  if (saved.autoName) resumeAutoName(server, pane.n);
  const term = server.terminals.get(pane.n);
  if (term) {
    if (history) term.show(history);
    term.show(bannerText({ history: history ? (saved.scrollback?.savedAt ?? null) : null, notices: plan.notices, waitingFor: plan.waiting && plan.record ? argvText(plan.record) : null, cols: saved.cols }));
  } else if (history) {
    warn(`pane ${saved.address}: no terminal to show its history in`);
  }
  if (plan.notices.length) warn(`pane ${saved.address}: ${plan.notices.join('; ')}`);
  if (plan.resumed && term) fallBackIfResumeFails(deps, pane, plan.resumed, warn);
  return pane;
}

/** `args` with the first run of `form` at or after index `from` taken out; null when it is not there. */
function without(args: string[], form: string[], from: number): string[] | null {
  for (let i = Math.max(0, from); i + form.length <= args.length; i++) {
    if (form.every((w, k) => args[i + k] === w)) return [...args.slice(0, i), ...args.slice(i + form.length)];
  }
  return null;
}

/**
 * A resumed agent that exits non-zero within RESUME_FAIL_WINDOW_MS could not resume
 * (its CLI lost or never kept the conversation): the pane says so and starts the CLI
 * afresh, with the same wrapping (sandbox, hooks) minus the resume words.
 */
function fallBackIfResumeFails(deps: PersistDeps, pane: Pane, resumed: { fresh: LaunchSpec; form: string[] }, warn: (m: string) => void): void {
  const server = deps.server;
  const startedAt = Date.now();
  const done = () => {
    stop();
    clearTimeout(timer);
  };
  const timer = setTimeout(() => done(), RESUME_FAIL_WINDOW_MS);
  timer.unref();
  const stop = server.listen((event, data) => {
    if (event !== 'pane/exited' && event !== 'pane/closed' && event !== 'pane/restarted') return;
    const d = data as { pane: number | Pane; exit?: { code: number | null } };
    if ((typeof d.pane === 'number' ? d.pane : d.pane.n) !== pane.n) return;
    done();
    const code = d.exit?.code ?? null;
    if (event !== 'pane/exited' || code === null || code === 0 || Date.now() - startedAt > RESUME_FAIL_WINDOW_MS) return;
    const term = server.terminals.get(pane.n);
    if (!term) return;
    // The started argv (sandbox and all) minus the resume words, looked for after the program's own name.
    const wrapped = term.launch;
    // A sandboxed pane's launcher carries the program's argv in its request: the words come out of that.
    const inSandbox = rewrapProgram(wrapped, (argv) => {
      const rest = without(argv.slice(1), resumed.form, 0);
      return rest === null ? null : [argv[0]!, ...rest];
    });
    const at = wrapped.program === resumed.fresh.program ? 0 : wrapped.args.lastIndexOf(resumed.fresh.program) + 1;
    const plainArgs = inSandbox === undefined ? without(wrapped.args, resumed.form, at) : null;
    const again: LaunchSpec | null = inSandbox !== undefined ? inSandbox : plainArgs === null ? null : { ...wrapped, args: plainArgs };
    const why = `resuming failed: ${path.basename(resumed.fresh.program)} exited with status ${code} within ${RESUME_FAIL_WINDOW_MS / 1000} s of its start`;
    if (!again) {
      warn(`pane ${server.address(pane.n)}: ${why}; its started command holds no resume words to take out, so it stays exited`);
      return;
    }
    // After the terminal has finished with the exit it is telling of.
    setImmediate(() => {
      if (server.terminals.get(pane.n) !== term || pane.state !== 'exited') return;
      term.show(bannerText({ history: null, notices: [`${why}; started afresh: ${argvText(resumed.fresh)}`], waitingFor: null }));
      warn(`pane ${server.address(pane.n)}: ${why}; started afresh`);
      restorePane(server, pane, { launch: resumed.fresh, name: pane.tag.name, user: pane.tag.user });
      try {
        term.relaunch(again);
        server.publish('pane/restarted', { pane });
      } catch (e) {
        warn(`pane ${server.address(pane.n)}: cannot start it afresh either: ${(e as Error).message}`);
      }
    });
  });
}

