// Electron's main process: one instance, one window. A utility process (dist/start.mjs
// --ipc) bridges the window to the per-user pane daemon, starting the daemon detached
// when none runs (or to --attach SOCKET), so closing the window only detaches it: the
// daemon is not this app's child and keeps the panes. The window is sandboxed and
// loads the same renderer the Chromium host serves, talking WebSocket + secret.
import { app, BrowserWindow, ipcMain, Notification, screen, session, utilityProcess, type UtilityProcess } from 'electron';
import path from 'node:path';
import { hardenContents, hardenSession, trustedSender } from './security';
import { DEFAULT_SIZE, loadWindowState, saveWindowState } from './windowState';
import { DISABLED_FEATURES } from './windowFlags';

interface Ready {
  type: 'ready';
  origin: string;
  wsUrl: string;
  secret: string;
  socketPath: string;
  mode: 'server' | 'bridge';
}

let win: BrowserWindow | undefined;
let serverProc: UtilityProcess | undefined;
let ready: Ready | undefined;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Starts the bridge (and, if needed, the daemon) from a utility process and waits for its address. */
function startServerProcess(): Promise<Ready> {
  const startScript = path.join(__dirname, '..', 'start.mjs');
  const args = ['--ipc'];
  for (const flag of ['--attach', '--socket', '--port']) {
    const v = argValue(flag);
    if (v !== undefined) args.push(flag, v);
  }
  const proc = utilityProcess.fork(startScript, args, { serviceName: 'pane server', stdio: 'inherit' });
  serverProc = proc;
  return new Promise((resolve, reject) => {
    proc.on('message', (m: unknown) => {
      if ((m as Ready)?.type === 'ready') resolve(m as Ready);
    });
    proc.once('exit', (code) => {
      if (!ready) reject(new Error(`the pane server process exited (${code}) before it was ready`));
      else if (!quitting) {
        // The bridge is the window's only way to the daemon: without it the window has nothing true to show.
        new Notification({ title: 'pane', body: `the window lost its bridge to the pane daemon (exit ${code}); the daemon keeps running` }).show();
        app.quit();
      }
    });
  });
}

function createWindow(r: Ready): BrowserWindow {
  const userData = app.getPath('userData');
  const saved = loadWindowState(userData, screen.getAllDisplays().map((d) => d.workArea));
  const w = new BrowserWindow({
    ...(saved ? { x: saved.x, y: saved.y, width: saved.width, height: saved.height } : DEFAULT_SIZE),
    title: 'pane',
    backgroundColor: '#0f1115',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (saved?.maximized) w.maximize();
  w.once('ready-to-show', () => w.show());
  const remember = () => {
    if (w.isDestroyed() || w.isMinimized()) return;
    const b = w.isMaximized() ? (saved ?? { ...w.getBounds() }) : w.getBounds();
    saveWindowState(userData, { x: b.x ?? 0, y: b.y ?? 0, width: b.width, height: b.height, maximized: w.isMaximized() });
  };
  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(remember, 500);
  };
  w.on('resize', soon);
  w.on('move', soon);
  w.on('close', remember);
  // No secret in the URL: the page asks the preload for it (see pane:endpoint).
  void w.loadURL(`${r.origin}/`);
  return w;
}

let quitting = false;

// Before the app is ready, as Chromium reads its switches at start (electron/windowFlags.ts says why).
// appendSwitch replaces a switch of that name, so features the person disabled on the command line stay in the list.
const disabledAlready = app.commandLine.getSwitchValue('disable-features').split(',').filter(Boolean);
app.commandLine.appendSwitch('disable-features', [...new Set([...disabledAlready, ...DISABLED_FEATURES])].join(','));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  app.on('web-contents-created', (_e, contents) => {
    if (ready) hardenContents(contents, ready.origin);
  });

  ipcMain.handle('pane:endpoint', (e) => {
    if (!ready || !trustedSender(e.senderFrame?.url, e.sender, win?.webContents, ready.origin)) throw new Error('not allowed');
    return { url: ready.wsUrl, token: ready.secret };
  });

  ipcMain.on('pane:notify', (e, title: unknown, body: unknown, pane: unknown) => {
    if (!ready || !trustedSender(e.senderFrame?.url, e.sender, win?.webContents, ready.origin)) return;
    if (typeof title !== 'string' || typeof body !== 'string') return;
    // Only when the person is elsewhere: a bell in the window they are looking at is visible already.
    if (win?.isFocused() || !Notification.isSupported()) return;
    const n = new Notification({ title: title.slice(0, 200), body: body.slice(0, 1000), silent: false });
    n.on('click', () => {
      if (!win || win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      // The page focuses the pane the notification was about.
      if (typeof pane === 'number' && Number.isInteger(pane)) win.webContents.send('pane:notification-click', pane);
    });
    n.show();
  });

  app.whenReady().then(async () => {
    try {
      ready = await startServerProcess();
    } catch (e) {
      process.stderr.write(`pane: ${(e as Error).message}\n`);
      app.exit(1);
      return;
    }
    hardenSession(session.defaultSession, ready.origin);
    win = createWindow(ready);
    hardenContents(win.webContents, ready.origin);
    win.on('closed', () => {
      win = undefined;
    });
  });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => {
    quitting = true;
    serverProc?.postMessage({ type: 'stop' });
    // Only the bridge stops: the window detaches and the daemon keeps the panes.
    setTimeout(() => serverProc?.kill(), 1500).unref();
  });
}
