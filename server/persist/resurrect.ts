// Brings saved sessions back: layout, floats, focus, zoom, tags, attrs and cwd; each
// pane's history above a labelled line; shells restarted in their directory; other
// programs behind an "Enter to run" banner unless allowlisted; agents resumed. What
// cannot come back (a directory, a program) is said in the pane, and a shell offered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { LaunchSpec, Pane, Session } from '../../kits/protocol/model';
import type { DurabilityConfig, SavedPane, StateFile } from '../../kits/protocol/snapshot';
import { which } from '../agents/programs';
import { findApp } from '../config/appFiles';
import { leaves } from '../../kits/layout/tree';
import { bodyOf } from '../model/bodies/registry';
import { createPane, type NewPaneSpec } from '../model/lifecycle';
import { restorePane } from '../model/paneOps';
import { makeSession, publish, restore, restoredName } from '../model/session';
import type { Services } from '../services';
import { blockSerialized } from '../pty/historyStore';
import { bannerText, ENTER_TO_RUN_SCRIPT } from './banner';
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

function isDir(d: string): boolean {
  try {
    return fs.statSync(d).isDirectory();
  } catch {
    return false;
  }
}

interface Plan {
  spec: NewPaneSpec;
  /** What the pane's launch record says afterwards (the program it stands for). */
  record: LaunchSpec | null;
  notices: string[];
  waiting: boolean;
}

/** Decides what a saved pane runs now, and what the pane says about it. */
export function planPane(services: Services, p: SavedPane, cfg: DurabilityConfig): Plan {
  const server = services.server;
  const home = server.env.HOME ?? os.homedir();
  const base: NewPaneSpec = { name: p.tag.name, signature: p.signature, kind: p.kind, owner: p.owner, attrs: { ...p.attrs } };
  const shellHere = (cwd: string): Plan => ({ spec: { ...base, cwd, kind: bodyOf(p.kind).shellKind, attrs: { ...base.attrs, 'default-shell': '1' } }, record: p.launch, notices: [], waiting: false });
  const isShell = p.attrs['default-shell'] === '1' || p.launch === null;
  if (!isDir(p.cwd)) {
    const plan = shellHere(home);
    plan.notices.push(`the directory ${p.cwd} no longer exists, so nothing was started there; this is a shell in ${home}`);
    if (!isShell && p.launch) plan.notices.push(`it ran: ${argvText(p.launch)}`);
    return plan;
  }
  if (isShell) return { spec: { ...base, cwd: p.cwd }, record: null, notices: [], waiting: false };
  const launch = p.launch!;
  const pathVar = launch.env?.PATH ?? server.env.PATH;
  // Agent panes get pane's shims on PATH; the agent contributor checks their program itself.
  if (!bodyOf(p.kind).agent && !which(launch.program, pathVar)) {
    const plan = shellHere(p.cwd);
    plan.notices.push(`${launch.program} is not installed here (it ran: ${argvText(launch)}); this is a shell in ${p.cwd} instead`);
    return plan;
  }
  if (bodyOf(p.kind).agent) {
    const resumed = resumeLaunch(services, p, launch);
    return { spec: { ...base, launch: resumed.launch }, record: resumed.launch, notices: resumed.notice ? [resumed.notice] : [], waiting: false };
  }
  if (cfg.restartAtOnce.includes(path.basename(launch.program))) return { spec: { ...base, launch }, record: launch, notices: [], waiting: false };
  const wrapper: LaunchSpec = { ...launch, program: '/bin/sh', args: ['-c', ENTER_TO_RUN_SCRIPT, 'pane-resume', launch.program, ...launch.args] };
  return { spec: { ...base, launch: wrapper }, record: launch, notices: [], waiting: true };
}

/** An agent's launch with its app's resume arguments and the recorded session id, or a fresh start saying so. */
function resumeLaunch(services: Services, p: SavedPane, launch: LaunchSpec): { launch: LaunchSpec; notice?: string } {
  const appId = p.attrs.app;
  let resume: { args: string[] } | undefined;
  try {
    resume = appId ? findApp(services.config.apps, appId)?.resume : undefined;
  } catch {
    resume = undefined;
  }
  // A relaunch must not stack a second --resume on the one a previous resurrection added.
  const args = stripResume(launch.args, resume?.args);
  if (!resume) return { launch: { ...launch, args }, notice: `${path.basename(launch.program)} has no resume entry in its app file; started afresh` };
  if (!p.resume) return { launch: { ...launch, args }, notice: 'no conversation id was reported by its hooks before the restart; started afresh' };
  const id = p.resume.session;
  return { launch: { ...launch, args: [...args, ...resume.args.map((a) => a.replaceAll('{session}', id))] } };
}

function stripResume(args: string[], resume: string[] | undefined): string[] {
  if (!resume) return [...args];
  const flag = resume[0];
  const i = flag === undefined ? -1 : args.indexOf(flag);
  return i < 0 ? [...args] : [...args.slice(0, i), ...args.slice(i + resume.length)];
}

export const argvText = (l: LaunchSpec) => [l.program, ...l.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/** Recreates every session of `state`; returns them in order. Failures of one pane are said in its place, never fatal. */
export async function resurrect(services: Services, state: StateFile, o: ResurrectOptions, warn: (m: string) => void): Promise<Session[]> {
  const server = services.server;
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
    created.set(saved.n, startPane(services, session, saved, o.config, histories.get(saved.n) ?? null, warn));
  }
  for (let i = 0; i < state.sessions.length; i++) {
    const saved = state.sessions[i]!;
    const s = out[i]!;
    publish(server, restore(s, saved, (n) => created.get(n)?.n));
  }
  return out;
}

function startPane(services: Services, session: Session, saved: SavedPane, cfg: DurabilityConfig, history: Buffer | null, warn: (m: string) => void): Pane {
  const server = services.server;
  let plan = planPane(services, saved, cfg);
  let pane: Pane;
  try {
    pane = createPane(server, session, plan.spec, { cols: saved.cols, rows: saved.rows });
  } catch (e) {
    // Whatever refused (an agent CLI gone, a limit), the pane still comes back, as a shell saying why.
    const cwd = isDir(saved.cwd) ? saved.cwd : (server.env.HOME ?? os.homedir());
    plan = { spec: { name: saved.tag.name, owner: saved.owner, cwd, attrs: { ...saved.attrs, 'default-shell': '1' } }, record: saved.launch, notices: [`${(e as Error).message}; this is a shell in ${cwd} instead`], waiting: false };
    warn(`pane ${saved.address}: ${(e as Error).message}`);
    pane = createPane(server, session, plan.spec, { cols: saved.cols, rows: saved.rows });
  }
  restorePane(server, pane, { launch: plan.record, name: saved.tag.name, user: saved.tag.user });
  const term = server.terminals.get(pane.n);
  if (term) {
    if (history) term.show(history);
    term.show(bannerText({ history: history ? (saved.scrollback?.savedAt ?? null) : null, notices: plan.notices, waitingFor: plan.waiting && plan.record ? argvText(plan.record) : null }));
  } else if (history) {
    warn(`pane ${saved.address}: no terminal to show its history in`);
  }
  if (plan.notices.length) warn(`pane ${saved.address}: ${plan.notices.join('; ')}`);
  return pane;
}

