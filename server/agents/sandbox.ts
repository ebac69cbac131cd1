// The OS sandbox an agent's panes run in, built from its .access: the settings
// @anthropic-ai/sandbox-runtime takes (bubblewrap on Linux), the launch that runs
// the program through the daemon's sandbox helper (decision 049), and whether a sandbox can run here at all.
// The .access is read at launch: an edit applies to the next launch (shown as pending).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Access } from '../../kits/protocol/agent';
import { PaneFault } from '../../kits/protocol/error';
import type { LaunchSpec } from '../../kits/protocol/model';
import { runtimeDir, stateDir } from '../../kits/node/paths';
import { paneEntry } from './programs';
import { which } from '../../kits/node/which';
import type { AppEntry } from '../../kits/protocol/app';
import { findApp } from '../config/appFiles';
import { homeLines } from './agentHome';
import { UNIX_SOCKETS_ALLOWED } from '../../kits/node/sandboxSockets';
import { helperTmp, launcherArgs, launcherOf, LAUNCHER_SHELL, type WrapRequest } from '../../kits/node/sandboxHelper';
import type { AgentService } from './service';

/** The agent's own hook door, in its home beside pane.sock: HTTP hooks from inside its sandbox reach it through a relay. */
export const HOOK_SOCKET = 'hook.sock';

/**
 * The port, on a sandbox's own loopback, of the relay to its agent's pane socket: nothing inside
 * may make a unix socket (the runtime's seccomp filter), so there $PANE_SOCKET is
 * tcp://127.0.0.1:PORT. Any port is free in a network namespace of its own but the runtime's
 * bridges (3128, 1080) and the hook relay's, which is the server's hook port (the kernel's
 * choice): the next one when that is this.
 */
export const AGENT_SOCKET_RELAY_PORT = 7519;

/** The pane socket relay's port in a sandbox whose hook relay listens on `hookPort`. */
export function socketRelayPort(hookPort: number | undefined): number {
  return hookPort === AGENT_SOCKET_RELAY_PORT ? AGENT_SOCKET_RELAY_PORT + 1 : AGENT_SOCKET_RELAY_PORT;
}

/** $PANE_SOCKET inside a sandbox whose hook relay listens on `hookPort`: its relay to the agent's own socket. */
export function sandboxedSocket(hookPort: number | undefined): string {
  return `tcp://127.0.0.1:${socketRelayPort(hookPort)}`;
}

/** The machine's shared temp directories: inside a sandbox each is an empty tmpfs of its own. */
export const TEMP_PLACES: readonly string[] = ['/tmp', '/var/tmp'];

/** TEMP_PLACES and the daemon's own temp directory ($TMPDIR) where that is elsewhere. */
export function tempPlaces(): string[] {
  return [...new Set([...TEMP_PLACES, os.tmpdir()])];
}

/**
 * The root's children a Linux sandbox keeps in view: the system (its programs, libraries and
 * settings, the packages people install for everyone in /opt, /nix, /gnu, /snap) and the kernel's
 * places. Every other child (/home, /root, /srv, /mnt, /media, a /work or /data of checkouts, a
 * file at the top) is where people keep their files: hidden whole, as the person's home is.
 */
export const SYSTEM_PLACES: readonly string[] = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr', '/etc', '/opt', '/nix', '/gnu', '/snap', '/var', '/proc', '/dev', '/sys'];

/** Places of the people inside the system ones: their mail spools. */
export const PEOPLE_IN_SYSTEM: readonly string[] = ['/var/mail', '/var/spool/mail'];

/**
 * The machine's services' runtime state, hidden whole on Linux as the people places are: their
 * sockets (docker's and containerd's, which give their group root; the system bus), a
 * container's /run/secrets and systemd's credentials, every session's runtime dir (/run/user:
 * keyrings, ssh agents, FUSE mounts). Nothing a program in a network namespace of its own needs
 * (its names resolve at the proxy); a socket it should reach is granted by .access sandbox.read.
 */
export const SERVICE_PLACES: readonly string[] = ['/run', '/var/run'];

/** Where macOS keeps people's files: every home and every mounted volume. */
const DARWIN_PEOPLE_PLACES: readonly string[] = ['/Users', '/Volumes'];

/**
 * The places of the machine's people an agent's sandbox hides whole (each an empty, read-only
 * tmpfs; what visiblePaths names bound back in): every child of / that is not a system place
 * (SYSTEM_PLACES) or a temp place (those are each sandbox's own), and PEOPLE_IN_SYSTEM where
 * they are. Read at each launch: a directory made at the top later is hidden from the next one.
 */
export function peoplePlaces(): string[] {
  if (process.platform === 'darwin') return [...DARWIN_PEOPLE_PLACES];
  let names: string[];
  try {
    names = fs.readdirSync('/');
  } catch {
    names = [];
  }
  const top = names.map((n) => `/${n}`).filter((p) => !SYSTEM_PLACES.includes(p) && !TEMP_PLACES.includes(p) && !SERVICE_PLACES.includes(p));
  return uniquePlaces([...top, ...PEOPLE_IN_SYSTEM.filter((p) => fs.existsSync(p))]);
}

/** One spelling per place: a link to another listed one (Debian's /var/spool/mail → ../mail) is that place. */
function uniquePlaces(places: readonly string[]): string[] {
  const seen = new Set<string>();
  return places.filter((p) => !seen.has(real(p)) && seen.add(real(p)));
}

/**
 * SERVICE_PLACES where they are, one spelling each (Debian's /var/run is a link to /run). Where a
 * directory of PATH is inside one (NixOS keeps the system's programs in /run/current-system/sw/bin
 * and /run/wrappers/bin), that place's other children instead, read at each launch, so the
 * programs stay in view and the services' sockets and secrets do not. None off Linux (macOS's
 * runtime keeps sockets allowed, and its /var/run holds the resolver's).
 */
export function servicePlaces(pathVar: string | undefined = process.env.PATH, places: readonly string[] = SERVICE_PLACES): string[] {
  return serviceSplit(pathVar, places).hidden;
}

/** The children of SERVICE_PLACES that PATH keeps in view (servicePlaces hides the others). */
function serviceSplit(pathVar: string | undefined, places: readonly string[]): { hidden: string[]; kept: string[] } {
  if (process.platform !== 'linux') return { hidden: [], kept: [] };
  const onPath = (pathVar ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)).map((d) => path.resolve(d));
  const hidden: string[] = [];
  const kept: string[] = [];
  for (const place of uniquePlaces(places.filter((p) => fs.existsSync(p)))) {
    const spellings = [...new Set([place, real(place)])];
    const keep = new Set<string>();
    for (const d of onPath) {
      const at = spellings.find((sp) => within(d, sp));
      const child = at === undefined ? undefined : path.relative(at, d).split(path.sep)[0]!;
      // Sessions' runtime dirs stay hidden whatever PATH says (fnm puts one of its own there): they are people's.
      if (child !== undefined && child !== '' && child !== 'user') keep.add(child);
    }
    if (keep.size === 0) {
      hidden.push(place);
      continue;
    }
    let names: string[];
    try {
      names = fs.readdirSync(place);
    } catch {
      names = [];
    }
    for (const n of names) (keep.has(n) ? kept : hidden).push(path.join(place, n));
  }
  return { hidden, kept };
}

/**
 * What a Linux sandbox's root is made of, and nothing else: the system's places (SYSTEM_PLACES)
 * where they are, and the children of /run that PATH keeps (serviceSplit). The sandbox helper
 * binds each (a link as a link) in place of the runtime's bind of the whole of / (sandbox.ts
 * rootFromPlaces), so a place made at the top after a launch is not in that launch either.
 */
export function rootPlaces(pathVar: string | undefined = process.env.PATH, services: readonly string[] = SERVICE_PLACES): string[] {
  return rootOf(serviceSplit(pathVar, services).kept);
}

/** The root of the system's places where they are, and `kept` (the children of /run PATH keeps). */
function rootOf(kept: readonly string[]): string[] {
  if (process.platform !== 'linux') return [];
  return [...SYSTEM_PLACES.filter((p) => fs.existsSync(p) || isLink(p)), ...kept];
}

/** Whether `p` is a symbolic link (a dangling one included). */
function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** How long the one-time probe of bubblewrap may take before we call it unusable. */
const PROBE_MS = 5_000;

const probes = new Map<string, string | null>();

/** Why no sandbox can run here (null: one can). Probed once per PATH: bubblewrap present, and user + network namespaces allowed. */
export function sandboxUnavailable(pathVar: string | undefined): string | null {
  const key = pathVar ?? '';
  const known = probes.get(key);
  if (known !== undefined) return known;
  let why: string | null = null;
  if (process.platform === 'darwin') why = which('sandbox-exec', pathVar ?? '/usr/bin') ? null : 'sandbox-exec is missing';
  else if (process.platform !== 'linux') why = `no sandbox for ${process.platform}`;
  else {
    const bwrap = which('bwrap', pathVar);
    if (!bwrap) why = 'bubblewrap (bwrap) is not installed (Debian: apt install bubblewrap)';
    else {
      const r = spawnSync(bwrap, ['--unshare-user', '--unshare-net', '--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'], { timeout: PROBE_MS, encoding: 'utf8' });
      if (r.status !== 0) why = `bubblewrap cannot make user/network namespaces here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0]})`;
    }
  }
  probes.set(key, why);
  return why;
}

/** The shell integration directories pane writes in its runtime dir (server/shell/integration.ts). */
function shellDirs(runtime: string): string[] {
  try {
    return fs.readdirSync(runtime).filter((n) => /^shell-[0-9a-f]+$/.test(n)).map((n) => path.join(runtime, n));
  } catch {
    return [];
  }
}

/** `~/x` under the person's home; anything else as written. */
function expand(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** A path of the person's home bound into an agent's sandbox, and why (`pane access NAME` lists them). */
export interface Visible {
  path: string;
  why: string;
}

/** Whether `p` is `dir` or below it. */
function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** Where `p` is, its links followed: as written where it is not there (yet). */
function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The directory that holds a program's whole install: the top `node_modules`'s parent for a package's script, else its own directory. */
function installRoot(file: string): string {
  const at = real(file);
  const i = at.indexOf(`${path.sep}node_modules${path.sep}`);
  return i > 0 ? at.slice(0, i) : path.dirname(at);
}

/** The package a pane entry (…/dist/pane.cjs) belongs to: the folder above dist/ (a checkout, or node_modules/pane). */
function packageRoot(entry: string): string {
  const file = real(entry);
  const dir = path.dirname(file);
  return path.basename(dir) === 'dist' ? path.dirname(dir) : installRoot(file);
}

/**
 * What of the person's home, the machine's other top-level places, where people keep things (peoplePlaces), its services'
 * (servicePlaces) and the shared temp places (TEMP_PLACES) an agent's programs see: nothing, but what is bound back in.
 * Each is hidden whole, so a file made there after launch (a new key, a login)
 * is hidden too; these are the exceptions: the agent's own home, the project it works
 * in (unless that is the person's home itself), pane's own program and the shims its
 * panes run, the Node that runs them, the programs it was asked to run and the
 * directories of PATH that hold them, and what its .access grants (sandbox.read,
 * sandbox.write).
 */
export function visiblePaths(svc: AgentService, name: string, access: Access, cwd: string, program: string | undefined, people: readonly string[]): Visible[] {
  const human = svc.server.env.HOME ?? os.homedir();
  const data = svc.options.dataDir;
  const out: Visible[] = [];
  // Outside these all is visible anyway (the system's places); none of them whole is ever bound.
  const hidden = [human, ...people, ...tempPlaces()];
  const add = (p: string | null | undefined, why: string) => {
    if (!p || !path.isAbsolute(p)) return;
    const n = path.resolve(p);
    if (!hidden.some((h) => within(n, h)) || hidden.includes(n)) return;
    if (out.some((v) => within(n, v.path))) return;
    for (let i = out.length - 1; i >= 0; i--) if (within(out[i]!.path, n)) out.splice(i, 1);
    out.push({ path: n, why });
  };
  add(svc.store.home(name), 'its home');
  if (cwd !== human && !within(data, cwd)) add(cwd, 'its project, its working directory');
  add(path.join(data, 'bin'), "pane's shims (pane, finger, mail, write)");
  add(path.join(data, 'claude-settings.json'), 'the hook settings pane writes for Claude Code');
  // pane's whole package (dist/, bin/pane-hook, node_modules/), not dist/ alone: hook commands run
  // bin/pane-hook, and a clean rebuild replaces dist/ (a bind of the old one would go stale).
  const entry = paneEntry(svc);
  if (entry) {
    const pkg = packageRoot(entry);
    add(pkg, "pane's own program (its package: dist/, bin/pane-hook, node_modules/)");
    // Its node_modules where that is a link elsewhere (a linked install, a workspace's shared one).
    add(real(path.join(pkg, 'node_modules')), "pane's own program's node_modules (where its link leads)");
  }
  add(path.dirname(path.dirname(process.execPath)), 'the Node.js that runs pane');
  if (program) {
    const found = path.isAbsolute(program) ? program : which(program, svc.server.env.PATH ?? process.env.PATH);
    if (found) {
      // Where PATH finds it (a link in ~/.local/bin, say) and where that leads (its package or install).
      add(path.dirname(found), `the directory of PATH that holds ${path.basename(program)}`);
      add(installRoot(found), `the program it runs (${path.basename(program)})`);
    }
  }
  for (const p of access.sandbox.read) add(expand(p, human), '.access sandbox.read');
  for (const p of access.sandbox.write) add(expand(p, human), '.access sandbox.write');
  return out;
}

/** The hosts an agent's sandbox may reach: its .access network, and its app's hosts unless `sandbox.appNetwork` is false. */
export function networkOf(access: Access, appHosts: readonly string[]): string[] {
  return [...new Set([...access.sandbox.network, ...(access.sandbox.appNetwork ? appHosts : [])])];
}

export interface SandboxSettings {
  /** pane's own part, taken off before the runtime sees the rest: hidden directories sealed read-only, and what the root is made of (Linux; none elsewhere). */
  pane: { sealed: string[]; root: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[]; allowAllUnixSockets: boolean };
  filesystem: { denyRead: string[]; allowRead: string[]; allowWrite: string[]; denyWrite: string[] };
}

/**
 * The runtime settings for agent `name` working in `cwd`: writes to cwd (unless it
 * is the person's home or /), its home and temp dir; its account files read-only;
 * pane's data, state and runtime dirs, other agents' homes and the person's socket
 * hidden; network only to the hosts .access lists. No unix socket is made inside (Linux) unless
 * its .access says sandbox.unixSockets "allow" (pane reaches the agent's own sockets by relays).
 */
export function sandboxSettings(svc: AgentService, name: string, access: Access, cwd: string, program?: string, appHosts: readonly string[] = []): SandboxSettings {
  const human = svc.server.env.HOME ?? os.homedir();
  const home = svc.store.home(name);
  const data = svc.options.dataDir;
  const write = [home, ...access.sandbox.write.map((p) => expand(p, human))];
  if (cwd !== human && cwd !== '/' && !data.startsWith(cwd + path.sep)) write.unshift(cwd);
  // pane's own files: its data (accounts, other agents' homes), its state (the person's saved
  // screens, journal, daemon.log), and its runtime dir (sockets, FUSE mounts of the person's namespace).
  const persistDir = svc.deps.persistDir();
  const state = [...new Set([stateDir(), ...(persistDir !== undefined ? [persistDir] : [])])];
  const runtime = runtimeDir(false);
  // The walls start empty: the person's whole home is hidden (a tmpfs over it), and only
  // what visiblePaths names is bound back in, so what is made there later is hidden too.
  // The shared temp places are the person's too (the window's browser profile, downloads, other
  // programs' files): each sandbox has them empty and its own, writable (TEMP_PLACES).
  // So are the other places people keep files in (peoplePlaces: other homes, /srv, /mnt, checkouts at the top),
  // and the services' runtime state (servicePlaces: /run, its sockets and secrets).
  const services = serviceSplit(svc.server.env.PATH ?? process.env.PATH, SERVICE_PLACES);
  const people = [...peoplePlaces(), ...services.hidden];
  const sockets = socketsAllowed(access);
  const hidden = [human, ...people, data, ...state, runtime, ...tempPlaces(), ...access.sandbox.denyRead.map((p) => expand(p, human))];
  if (svc.server.socketPath) hidden.push(svc.server.socketPath);
  return {
    // The tmpfs over the home and over each people place is sealed read-only; so is a temp place's that holds
    // the home (the runtime mounts one tmpfs there and none for the home inside it), else a write into the
    // hidden home would land in it unrefused. By where each is, links followed: bubblewrap mounts there.
    // The root: the system's places alone, bound one by one (the helper's rootFromPlaces), then sealed read-only.
    pane: { sealed: [...new Set([human, ...people, ...tempPlaces().filter((t) => within(human, t))].map(real))], root: rootOf(services.kept) },
    network: { allowedDomains: networkOf(access, appHosts), deniedDomains: [], allowAllUnixSockets: sockets },
    filesystem: {
      denyRead: hidden,
      // Inside pane's hidden state: its own home, the shims and hook settings its programs run,
      // and the shell integration scripts its shells source (runtime dir, shell-<hash>).
      // And the sandbox helper's TMPDIR, where the runtime's proxies' sockets are (its network's way out).
      allowRead: [...new Set([home, path.join(data, 'bin'), path.join(data, 'claude-settings.json'), ...visiblePaths(svc, name, access, cwd, program, people).map((v) => v.path), ...shellDirs(runtime), helperTmp(runtime, process.pid, sockets)])],
      allowWrite: write,
      // What makes the account (and what the server files for it, its doors included) is not the agent's to edit.
      denyWrite: ['.access', '.token', '.project', '.app', 'log', 'Maildir', 'pane.sock', HOOK_SOCKET].map((f) => path.join(home, f)),
    },
  };
}

/**
 * What agent `name`'s programs can see (paths resolved through links) in a sandbox
 * working in its project: not hidden, or bound back in. What pane does for the agent
 * outside its sandbox (the plumber's file checks) goes no further. The sandbox's
 * settings are worked out once, for every path the returned check is asked about.
 */
export function agentSees(svc: AgentService, name: string): (p: string) => boolean {
  const access = svc.access(name).access;
  const project = svc.store.read(name, '.project').trim();
  const cwd = project && path.isAbsolute(project) ? project : svc.store.home(name);
  const { filesystem } = sandboxSettings(svc, name, access, cwd);
  return (p) => {
    // Not there: as written (a check on it fails anyway).
    const at = real(path.resolve(p));
    return filesystem.allowRead.some((d) => within(at, d)) || filesystem.allowWrite.some((d) => within(at, d)) || !filesystem.denyRead.some((d) => within(at, d));
  };
}

/** Whether agent programs under `access` may make unix sockets: on Linux only where its .access allows it (the runtime filters them there alone). */
export function socketsAllowed(access: Access): boolean {
  return UNIX_SOCKETS_ALLOWED || access.sandbox.unixSockets === 'allow';
}

/** What of an .access shapes a launch's sandbox: an edit that changes it is pending for panes launched before. */
export function sandboxStamp(access: Access): string {
  return JSON.stringify(access.sandbox);
}

/**
 * Lines for `pane access NAME` after the .access summary: what its app's CLI is given in its
 * home, then each running pane of the agent whose sandbox predates the .access in force.
 */
export function pendingLines(svc: AgentService, name: string): string[] {
  const now = sandboxStamp(svc.access(name).access);
  let app: AppEntry | undefined;
  try {
    // Its default app, else the app of a pane it runs now.
    const id = svc.store.read(name, '.app').trim() || (svc.panesOf(name).map((r) => svc.server.panes.get(r.pane)?.attrs.app).find((a) => a) ?? '');
    app = id ? findApp(svc.deps.config().apps, id) : undefined;
  } catch {
    app = undefined;
  }
  const lines: string[] = homeLines(svc, name, app);
  const human = svc.server.env.HOME ?? os.homedir();
  let project = '';
  try {
    project = svc.store.read(name, '.project').trim();
  } catch {
    project = '';
  }
  const { access } = svc.access(name);
  const hosts = app?.agent?.network ?? [];
  if (hosts.length > 0) lines.push(access.sandbox.appNetwork ? `its CLI's hosts (app ${app!.id}, merged into network at launch): ${hosts.join(', ')}` : `its CLI's hosts (app ${app!.id}) are NOT merged (.access sandbox.appNetwork is false): ${hosts.join(', ')}`);
  const people = peoplePlaces();
  const services = servicePlaces(svc.server.env.PATH ?? process.env.PATH);
  lines.push(
    `hidden whole: the person's home (${human}), the machine's other top-level places, where people keep things (${people.join(', ') || 'none'}), its services' sockets and secrets (${services.join(', ') || 'none'}) and the temp dirs (${tempPlaces().join(', ')}; each its own and empty inside); visible of them, nothing else:`,
  );
  for (const v of visiblePaths(svc, name, access, project || human, app?.launch?.program, [...people, ...services])) lines.push(`  ${v.path}  (${v.why})`);
  for (const [n, id] of svc.identity) {
    if (id.agent !== name || id.stamp === undefined) continue;
    if (id.sandbox !== 'bubblewrap') lines.push(`UNSANDBOXED: pane ${n} runs without a sandbox (${id.sandbox?.replace(/^unsandboxed: /, '') ?? 'unknown'})`);
    if (id.stamp !== now) lines.push(`pending: pane ${n} runs with the sandbox of its launch; this .access applies at its next launch`);
  }
  return lines;
}

export interface SandboxLaunch {
  launch: LaunchSpec;
  /** `bubblewrap`, or `unsandboxed: WHY`. */
  mode: string;
  /** The settings in force, to tell an edited .access apart (pending until the next launch). */
  stamp: string;
}

/**
 * Wraps an agent pane's program in its sandbox. Where no sandbox can run, goes on
 * unsandboxed only if the .access says `unsandboxed: "allow"`, else throws a typed refusal.
 */
export function sandboxLaunch(svc: AgentService, name: string, wanted: LaunchSpec, cwd: string, appHosts: readonly string[] = []): SandboxLaunch {
  // A launch that is already a sandbox (a pane brought back from a snapshot records the
  // wrapped argv) is unwrapped first: walls inside walls fail, and the .access in force
  // now is the one that must apply.
  const launch = unwrapSandbox(wanted);
  const { access, errors } = svc.access(name);
  const settings = sandboxSettings(svc, name, access, cwd, launch.program, appHosts);
  const stamp = sandboxStamp(access);
  const entry = paneEntry(svc);
  if (appHosts.length > 0 && access.sandbox.appNetwork) svc.store.log(name, `network: its app's hosts too (${appHosts.join(', ')})`);
  const why = errors.length > 0 ? null : (sandboxUnavailable(svc.server.env.PATH ?? process.env.PATH) ?? (entry ? null : 'the pane command (dist/pane.cjs) was not found to start the sandbox'));
  if (why !== null) {
    if (access.sandbox.unsandboxed !== 'allow') {
      svc.store.log(name, `launch refused: no sandbox can run here (${why}) and .access sandbox.unsandboxed is "refuse"`);
      throw new PaneFault('failed', `no sandbox can run here: ${why}; ${name}'s .access sandbox.unsandboxed is "refuse" (set it to "allow" to run unsandboxed)`, { reason: 'unsandboxed', subject: name });
    }
    svc.store.log(name, `launch UNSANDBOXED: ${why}`);
    return { launch, mode: `unsandboxed: ${why}`, stamp };
  }
  const tmp = path.join(svc.store.home(name), 'tmp');
  fs.mkdirSync(tmp, { recursive: true, mode: 0o700 });
  const socket = svc.doors.ensureSocket(name);
  // Its doors, by relays on the sandbox's loopback: its hooks' on the server's hook port (so
  // $PANE_HOOK_URL is the same string inside), its pane socket's on socketRelayPort ($PANE_SOCKET).
  const hooks = svc.deps.hooks();
  const relays = process.platform !== 'linux' ? [] : [...(hooks ? [`${hooks.port}:${svc.doors.ensureHookSocket(name, path.join(svc.store.home(name), HOOK_SOCKET))}`] : []), `${socketRelayPort(hooks?.port)}:${socket}`];
  const relay = relays.length > 0 ? relays.join(' ') : undefined;
  // The daemon's helper wraps it (kits/node/sandboxHelper.ts): the pane runs a small sh that asks for its command and runs it.
  const helper = svc.sandboxHelper(settings.network.allowAllUnixSockets)!;
  // Wrapped ahead while the pane's process starts; its launcher collects it.
  const req = helper.prewrap({ argv: [launch.program, ...launch.args], settings, cwd, tmp, ...(relay !== undefined ? { relay } : {}) });
  return {
    launch: { ...launch, program: LAUNCHER_SHELL, args: launcherArgs(helper.socket, req) },
    mode: 'bubblewrap',
    stamp,
  };
}

/**
 * A launcher's launch with its program's argv changed by `f` (the same helper, settings
 * and project); null when `f` gives null; undefined when `launch` is no launcher's.
 */
export function rewrapProgram(launch: LaunchSpec, f: (argv: string[]) => string[] | null): LaunchSpec | null | undefined {
  const req = launcherOf(launch);
  if (req === null) return undefined;
  const argv = f(req.argv);
  if (argv === null || argv.length === 0) return null;
  // Its own request: a wrap made ahead for the old argv is not this one's.
  const { prewrap: _ahead, ...rest } = req;
  return { ...launch, args: launcherArgs(launch.args[3]!, { ...rest, argv }) };
}

/**
 * The program a sandboxed launch runs (a launcher's request, or the `pane sandbox
 * --settings JSON -- PROGRAM ARGS` an older pane recorded); any other launch as it is.
 */
export function unwrapSandbox(launch: LaunchSpec): LaunchSpec {
  const req = launcherOf(launch);
  if (req !== null) return { ...launch, program: req.argv[0]!, args: req.argv.slice(1) };
  const a = launch.args;
  if (a[1] !== 'sandbox' || a[2] !== '--settings' || a[4] !== '--' || a.length < 6) return launch;
  const env = { ...(launch.env ?? {}) };
  delete env.PANE_AGENT_TMPDIR;
  delete env.PANE_HOOK_RELAY;
  const { env: _old, ...rest } = launch;
  return { ...rest, program: a[5]!, args: a.slice(6), ...(Object.keys(env).length ? { env } : {}) };
}
