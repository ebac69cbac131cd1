// `npm start`: attaches a window to the per-user pane daemon, starting the daemon
// (detached) only when none runs; the window is Electron when its binary is installed,
// else the same renderer in a system Chromium (--app mode, temporary profile). Closing
// the window detaches it; the daemon keeps the panes. Also the daemon itself (--daemon)
// and the bridge half of Electron (--ipc, run as its utility process).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser, hasDisplay, openAppWindow } from './chromium';
import { resolveSocketPath } from '../kits/node/paths';
import { daemonCodeReplaced, daemonLog, ensureDaemon, serverStopped, type Ensured } from './daemon';
import { CODE_REPLACED } from '../kits/protocol/codeReplaced';
import { host, type Hosted } from './host';
import { shown } from '../kits/protocol/shown';

const USAGE = `usage: pane start [--attach SOCKET] [--socket PATH] [--port N] [--serve] [--chromium] [--daemon]
       (from a checkout: npm start -- FLAGS)
  --attach SOCKET  open a window on a pane server already running at SOCKET (never starts one)
  --socket PATH    the daemon's socket (default: $PANE_SOCKET, then the default path)
  --port N         HTTP port on 127.0.0.1 for the window (default: any free port)
  --serve          a server in this process that serves the window's URL and keeps no
                   state; it ends with this process (for headless machines and tests)
  --chromium       use the Chromium host even where Electron is installed
  --daemon         be the daemon, in the foreground (what a window starts detached,
                   and what the systemd user unit runs); state in $XDG_STATE_HOME/pane`;

interface Args {
  attach?: string;
  socket?: string;
  port?: number;
  serve: boolean;
  chromium: boolean;
  ipc: boolean;
  daemon: boolean;
}

function parse(argv: string[]): Args | string {
  const a: Args = { serve: false, chromium: false, ipc: false, daemon: false };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i]!;
    const val = () => argv[++i] ?? '';
    if (f === '--attach') a.attach = val();
    else if (f === '--socket') a.socket = val();
    else if (f === '--port') a.port = Number(val());
    else if (f === '--serve') a.serve = true;
    else if (f === '--chromium') a.chromium = true;
    else if (f === '--ipc') a.ipc = true;
    else if (f === '--daemon') a.daemon = true;
    else if (f === '-h' || f === '--help') return '';
    else return `unknown option ${f}`;
  }
  if (a.port !== undefined && !(Number.isInteger(a.port) && a.port >= 0 && a.port < 65536)) return '--port needs a number 0..65535';
  if (a.attach === '' || a.socket === '') return 'that option needs a path';
  return a;
}

/** The Electron binary, if the optional `electron` package installed one. */
function electronBinary(): string | null {
  try {
    const p = createRequire(import.meta.url)('electron') as unknown;
    return typeof p === 'string' && fs.existsSync(p) ? p : null;
  } catch {
    return null; // "Electron failed to install correctly": the package is there, its binary is not
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** What to install for a window, said when neither host is found. */
const INSTALL_A_WINDOW = 'to get a window install Chromium (Debian/Ubuntu: sudo apt-get install chromium; Fedora: sudo dnf install chromium) or Electron beside pane (npm install -g electron), or set PANE_BROWSER to a Chromium-family browser.';
const say = (s: string) => process.stdout.write(`pane: ${s}\n`);

function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const go = () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(0));
  };
  process.once('SIGINT', go);
  process.once('SIGTERM', go);
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`${args ? `pane: ${args}\n` : ''}${USAGE}\n`);
    return args ? 2 : 0;
  }

  if (args.daemon) return (await import('./daemon')).runDaemon({ socketPath: resolveSocketPath(args.socket) });

  if (!args.ipc && !args.serve && !args.chromium) {
    const electron = electronBinary();
    if (electron) {
      const forwarded = process.argv.slice(2);
      const child = spawn(electron, [path.join(here, 'electron', 'main.cjs'), ...forwarded], { stdio: 'inherit' });
      return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 0)));
    }
  }

  let hosted: Hosted;
  // The daemon, when this window starts one: it starts while the browser starts and
  // loads the page (the bridge holds the page's socket until the daemon answers).
  let daemon: Promise<Ensured | Error> | null = null;
  let saidDaemon = false;
  /** The daemon's socket this window attaches to (none for --serve). */
  let attach: string | undefined;
  const cannotStart = (e: Error) => {
    process.stderr.write(`pane: cannot start: ${e.message}\n`);
    return 1;
  };
  try {
    // A window (or Electron's bridge) attaches to the daemon, started here only when none runs;
    // --serve alone keeps a server in this process.
    attach = args.attach;
    if (!attach && !args.serve) {
      attach = resolveSocketPath(args.socket);
      daemon = ensureDaemon(attach).catch((e: Error) => e);
      // Electron's utility process reports ready once the daemon answers, as before.
      if (args.ipc && !(await daemonSaid(daemon))) return 1;
    }
    const upstream = daemon?.then((d) => (d instanceof Error ? Promise.reject(d) : d));
    upstream?.catch(() => undefined); // said below; the bridge closes waiting pages with the reason
    hosted = await host({ ...(args.socket ? { socketPath: args.socket } : {}), ...(attach ? { attach } : {}), ...(args.port !== undefined ? { port: args.port } : {}), ...(upstream ? { upstream } : {}) });
  } catch (e) {
    return cannotStart(e as Error);
  }

  /** Says how the daemon came up (once); false, after saying why, when it did not. */
  async function daemonSaid(d: Promise<Ensured | Error>): Promise<boolean> {
    const r = await d;
    if (r instanceof Error) {
      cannotStart(r);
      return false;
    }
    if (!saidDaemon) say(r.started ? `started the pane daemon (pid ${r.pid ?? '?'}; log ${r.log})` : 'found the pane daemon running');
    // One that outlived an update runs the old code: said when it answers, never holding the window up.
    if (!saidDaemon && !r.started && attach !== undefined) void daemonCodeReplaced(attach).then((old) => old && say(`the pane daemon is running, ${CODE_REPLACED}.`));
    saidDaemon = true;
    return true;
  }

  if (args.ipc) {
    // Electron's utility process: report where we are, stop when told (or orphaned).
    const port = (process as unknown as { parentPort?: { postMessage(m: unknown): void; on(ev: 'message', cb: (e: { data: unknown }) => void): void } }).parentPort;
    if (!port) {
      process.stderr.write('pane: --ipc is for Electron’s utility process\n');
      await hosted.stop();
      return 2;
    }
    port.on('message', (e) => {
      if ((e.data as { type?: string })?.type === 'stop') void hosted.stop().finally(() => process.exit(0));
    });
    port.postMessage({ type: 'ready', origin: hosted.origin, wsUrl: hosted.wsUrl, secret: hosted.secret, socketPath: hosted.socketPath, mode: hosted.mode });
    return new Promise(() => undefined);
  }

  // Printed URLs carry a one-time launch token, never the secret: opening one spends it
  // (the page then holds an HttpOnly cookie), so a copy in scrollback or history opens nothing.
  stopOnSignals(() => hosted.stop());
  /** The daemon answered (said so) and this bridge is attached; false once the failure was said and the bridge stopped. */
  const attached = async (): Promise<boolean> => {
    if (daemon && !(await daemonSaid(daemon))) {
      await hosted.stop();
      return false;
    }
    say(hosted.mode === 'bridge' ? `attached to the pane server at ${hosted.socketPath}` : `pane server listening on ${hosted.socketPath}`);
    return true;
  };

  /**
   * A bridge with no window of its own to close (no display, no browser, the browser
   * gone): it serves until the server it relays to stops, then says so and ends, rather
   * than hold a port for a page nothing can answer. A server of this process's own (--serve) ends with it.
   */
  const serveUntilStopped = async (): Promise<number> => {
    if (hosted.mode !== 'bridge') return new Promise(() => undefined);
    const said = await serverStopped(hosted.socketPath);
    // The server's words name who stopped it: a program's, said as text.
    if (said !== undefined) say(`${shown(said)}, so this bridge ends too.`);
    else say(`the pane server at ${hosted.socketPath} has stopped (it exited, and did not come back${daemon ? `; its log is ${daemonLog()}` : ''}), so this bridge ends too.`);
    await hosted.stop();
    return 0;
  };

  if (args.serve) {
    if (!(await attached())) return 1;
    say(`serving the window at ${hosted.launchUrl()}`);
    return new Promise(() => undefined);
  }
  if (!hasDisplay()) {
    if (!(await attached())) return 1;
    say('no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window was opened.');
    say(`open this URL in a browser on this machine (it works once): ${hosted.launchUrl()}`);
    say(hosted.mode === 'server' ? 'still serving; Ctrl-C stops the server.' : 'still serving; Ctrl-C closes this bridge (the daemon keeps running; pane stop ends it, and this bridge with it).');
    return serveUntilStopped();
  }
  const browser = findBrowser();
  if (!browser) {
    if (!(await attached())) return 1;
    const wanted = process.env.PANE_BROWSER;
    say(wanted ? `PANE_BROWSER names ${wanted}, which does not exist; and Electron is not installed.` : 'neither Electron nor a Chromium or Chrome browser is installed, so no window can open.');
    say(INSTALL_A_WINDOW);
    say(`open this URL in a Chromium-family browser (it works once): ${hosted.launchUrl()}`);
    return serveUntilStopped();
  }
  // The browser starts now, while the daemon may still be starting: both take hundreds of milliseconds.
  say(`opening ${path.basename(browser)} (Electron is not installed here)`);
  const win = openAppWindow(browser, hosted.launchUrl());
  for (const n of win.notes) say(n);
  if (!(await attached())) {
    win.child.kill();
    await win.exited;
    win.cleanup();
    return 1;
  }
  const code = await win.exited;
  win.cleanup();
  // A clean exit is the window being closed: it detaches, and the daemon keeps the panes.
  // A crash keeps serving so the URL still works.
  if (code === 0) {
    say(hosted.mode === 'server' ? 'window closed; stopping the server.' : 'window closed; the pane daemon keeps your panes running (`npm start` reattaches, `pane stop` ends them).');
    await hosted.stop();
    return 0;
  }
  // Its own words on why (the last lines it wrote that are not Chromium's routine noise), then the way back in.
  const why = win
    .stderr()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\[\d+:\d+:\d+\/[\d.]+:(INFO|VERBOSE)/.test(l))
    .slice(-3)
    .join(' / ');
  say(`the browser exited (${code})${why ? `: ${why.slice(0, 600)}` : ''}; still serving at ${hosted.launchUrl()}`);
  return serveUntilStopped();
}

const code = await main();
process.exit(code);
