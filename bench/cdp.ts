// A bare Chrome DevTools Protocol driver for the page benches: Runtime, Page,
// Input and Emulation, nothing else. The benches drove Chromium with
// playwright-core before; it enables the Network domain on every page it
// attaches, and Chromium then base64-encodes every WebSocket frame the page
// receives into a CDP event for the driver. With pane streaming 20 MB into a
// pane that was a third of the run's CPU (page, browser and driver), a cost no
// user's window pays: nothing is attached to it. See docs/decisions/026.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import { sleep } from './procs';

/** How long one CDP call may take before the bench gives up on the browser (a page evaluate runs a whole measurement). */
const CALL_TIMEOUT_MS = 120_000;
/** Default wait for a page condition, as playwright's. */
const WAIT_TIMEOUT_MS = 30_000;
/** Chromium's close: after this long without exiting it is killed. */
const CLOSE_GRACE_MS = 5_000;

/** A duplex of whole JSON messages: Chromium's --remote-debugging-pipe (NUL-framed) or its WebSocket endpoint. */
interface Transport {
  send(msg: string): void;
  onMessage(fn: (msg: string) => void): void;
  onClose(fn: (why: string) => void): void;
  close(): void;
}

function pipeTransport(toBrowser: Writable, fromBrowser: Readable): Transport {
  let buf = '';
  const listeners: ((m: string) => void)[] = [];
  const closers: ((why: string) => void)[] = [];
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (s: string) => {
    buf += s;
    for (let i = buf.indexOf('\0'); i >= 0; i = buf.indexOf('\0')) {
      const msg = buf.slice(0, i);
      buf = buf.slice(i + 1);
      for (const l of listeners) l(msg);
    }
  });
  fromBrowser.on('close', () => closers.forEach((c) => c('the browser closed its pipe')));
  toBrowser.on('error', () => undefined); // the browser went away; calls fail by onClose
  return {
    send: (m) => void toBrowser.write(`${m}\0`),
    onMessage: (fn) => listeners.push(fn),
    onClose: (fn) => closers.push(fn),
    close: () => toBrowser.end(),
  };
}

async function wsTransport(url: string): Promise<Transport> {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 << 20 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    send: (m) => ws.send(m),
    onMessage: (fn) => ws.on('message', (d) => fn(String(d))),
    onClose: (fn) => ws.on('close', () => fn('the browser closed its DevTools socket')),
    close: () => ws.close(),
  };
}

class Cdp {
  private next = 0;
  private readonly calls = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private readonly handlers = new Map<string, ((params: any, sessionId?: string) => void)[]>();
  private closed: string | null = null;

  constructor(private readonly t: Transport) {
    t.onMessage((raw) => {
      const m = JSON.parse(raw) as { id?: number; method?: string; params?: any; result?: any; error?: { message: string }; sessionId?: string };
      if (m.id !== undefined) {
        const call = this.calls.get(m.id);
        if (!call) return;
        this.calls.delete(m.id);
        clearTimeout(call.timer);
        if (m.error) call.reject(new Error(m.error.message));
        else call.resolve(m.result);
      } else if (m.method) {
        for (const h of this.handlers.get(m.method) ?? []) h(m.params, m.sessionId);
      }
    });
    t.onClose((why) => {
      this.closed = why;
      for (const c of this.calls.values()) {
        clearTimeout(c.timer);
        c.reject(new Error(`cdp: ${why}`));
      }
      this.calls.clear();
    });
  }

  send<T = any>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`cdp: ${method}: ${this.closed}`));
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.calls.delete(id);
        reject(new Error(`cdp: ${method} had no answer in ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      this.calls.set(id, { resolve, reject, timer });
      this.t.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  /** Listens for an event; the returned function stops listening. */
  on(method: string, fn: (params: any, sessionId?: string) => void): () => void {
    const list = this.handlers.get(method) ?? [];
    list.push(fn);
    this.handlers.set(method, list);
    return () => list.splice(list.indexOf(fn), 1);
  }

  close(): void {
    this.t.close();
  }
}

/** Keys the benches press, as Chromium's Input.dispatchKeyEvent wants them. */
function keyEvent(key: string): { key: string; code: string; keyCode: number; text?: string } {
  if (key === 'Enter') return { key, code: 'Enter', keyCode: 13, text: '\r' };
  if (/^[a-zA-Z]$/.test(key)) return { key, code: `Key${key.toUpperCase()}`, keyCode: key.toUpperCase().charCodeAt(0), text: key };
  if (/^[0-9]$/.test(key)) return { key, code: `Digit${key}`, keyCode: key.charCodeAt(0), text: key };
  if (key === ' ') return { key, code: 'Space', keyCode: 32, text: ' ' };
  throw new Error(`cdp: no key definition for ${JSON.stringify(key)}`);
}
const MODIFIERS: Record<string, { bit: number; code: string; keyCode: number }> = {
  Alt: { bit: 1, code: 'AltLeft', keyCode: 18 },
  Control: { bit: 2, code: 'ControlLeft', keyCode: 17 },
  Meta: { bit: 4, code: 'MetaLeft', keyCode: 91 },
  Shift: { bit: 8, code: 'ShiftLeft', keyCode: 16 },
};

/** Errors that mean the page navigated under the call: a wait goes on in the new document. */
const NAVIGATED = /context was destroyed|Cannot find context|Inspected target navigated|Execution context/i;

type Polling = 'raf' | number;

/** An argument as a JavaScript literal in the page's source (JSON, or `undefined`). */
const literal = (arg: unknown): string => (arg === undefined ? 'undefined' : JSON.stringify(arg));

/** One page target, over a flat session. The subset of playwright's Page the benches use, with the same meaning. */
export class BarePage {
  private readonly errorHandlers: ((e: Error) => void)[] = [];

  constructor(
    private readonly cdp: Cdp,
    private readonly session: string,
  ) {
    cdp.on('Runtime.exceptionThrown', (p, s) => {
      if (s !== session) return;
      const d = p.exceptionDetails;
      const e = new Error(d.exception?.description ?? d.text);
      for (const h of this.errorHandlers) h(e);
    });
  }

  static async attach(cdp: Cdp, targetId: string): Promise<BarePage> {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const page = new BarePage(cdp, sessionId);
    await page.call('Page.enable');
    await page.call('Runtime.enable');
    return page;
  }

  /** A raw CDP command on this page's session (a profile, a trace: what a throwaway script may want). */
  call<T = any>(method: string, params: object = {}): Promise<T> {
    return this.cdp.send<T>(method, params, this.session);
  }

  on(event: 'pageerror', fn: (e: Error) => void): void {
    if (event === 'pageerror') this.errorHandlers.push(fn);
  }

  /** Runs `fn(arg)` in the page (its source, as playwright does: it may use nothing from the bench's scope) and returns its JSON value. */
  async evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.run<R>(`(${fn.toString()})(${literal(arg)})`);
  }

  private async run<R>(expression: string): Promise<R> {
    const r = await this.call<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as R;
  }

  /**
   * Resolves with fn(arg)'s first truthy value, polled in the page every
   * animation frame or every `polling` ms (one round trip, as playwright's).
   * A navigation under it restarts the poll in the new document.
   */
  async waitForFunction<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A, opts: { timeout?: number; polling?: Polling } = {}): Promise<NonNullable<R>> {
    const timeout = opts.timeout ?? WAIT_TIMEOUT_MS;
    const polling = opts.polling ?? 'raf';
    const deadline = Date.now() + timeout;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const expr = `new Promise((resolve, reject) => {
        const f = (${fn.toString()}); const a = ${literal(arg)};
        const end = performance.now() + ${left};
        const step = async () => {
          let v; try { v = await f(a); } catch (e) { return reject(e); }
          if (v) return resolve(v);
          if (performance.now() > end) return resolve(undefined);
          ${polling === 'raf' ? 'requestAnimationFrame(step)' : `setTimeout(step, ${polling})`};
        };
        step();
      })`;
      try {
        const v = await this.run<R>(expr);
        if (v) return v as NonNullable<R>;
        break;
      } catch (e) {
        if (!NAVIGATED.test((e as Error).message)) throw e;
        await sleep(20);
      }
    }
    throw new Error(`page: waited ${timeout} ms for ${fn.toString().slice(0, 200)}`);
  }

  /** Navigates and waits for the new document's load event. */
  async goto(url: string): Promise<void> {
    let off = () => {};
    const loaded = new Promise<void>((resolve) => (off = this.cdp.on('Page.loadEventFired', (_p, s) => s === this.session && resolve())));
    try {
      const r = await this.call<{ errorText?: string }>('Page.navigate', { url });
      if (r.errorText) throw new Error(`page: navigating to ${url}: ${r.errorText}`);
      await loaded;
    } finally {
      off();
    }
  }

  /**
   * Runs `during` while requests to URLs ending in `suffix` are answered with
   * `body` by the browser itself (the Fetch domain, off again afterwards):
   * how the benches hand the page a large blob its CSP would not let it fetch
   * from anywhere else.
   */
  async serving<T>(suffix: string, body: Buffer, during: () => Promise<T>): Promise<T> {
    const encoded = body.toString('base64');
    const off = this.cdp.on('Fetch.requestPaused', (p, s) => {
      if (s !== this.session) return;
      void this.call('Fetch.fulfillRequest', {
        requestId: p.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'content-type', value: 'application/octet-stream' }],
        body: encoded,
      });
    });
    await this.call('Fetch.enable', { patterns: [{ urlPattern: `*${suffix}` }] });
    try {
      return await during();
    } finally {
      off();
      await this.call('Fetch.disable');
    }
  }

  async setViewportSize(size: { width: number; height: number }): Promise<void> {
    await this.call('Emulation.setDeviceMetricsOverride', { ...size, deviceScaleFactor: 1, mobile: false });
  }

  waitForTimeout(ms: number): Promise<void> {
    return sleep(ms);
  }

  /** Real key events through the browser's input path: "a", "Enter", "Control+c". */
  readonly keyboard = {
    press: async (combo: string): Promise<void> => {
      const parts = combo.split('+');
      const key = keyEvent(parts.pop()!);
      const mods = parts.map((m) => {
        const d = MODIFIERS[m];
        if (!d) throw new Error(`cdp: no modifier ${m}`);
        return { name: m, ...d };
      });
      let modifiers = 0;
      for (const m of mods) {
        modifiers |= m.bit;
        await this.call('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: m.name, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers });
      }
      // A key with a modifier other than Shift types no text (Control+c is ^C through xterm's own key handling).
      const text = modifiers & ~8 ? undefined : key.text;
      await this.call('Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', key: key.key, code: key.code, windowsVirtualKeyCode: key.keyCode, modifiers, text, unmodifiedText: text });
      await this.call('Input.dispatchKeyEvent', { type: 'keyUp', key: key.key, code: key.code, windowsVirtualKeyCode: key.keyCode, modifiers });
      for (const m of mods.reverse()) {
        modifiers &= ~m.bit;
        await this.call('Input.dispatchKeyEvent', { type: 'keyUp', key: m.name, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers });
      }
    },
  };
}

export interface BareBrowser {
  /** Chromium's browser process. */
  pid: number;
  /** Its first page, attached, at the viewport asked for. */
  page: BarePage;
  close(): Promise<void>;
}

/** Debian's Chromium on a fresh profile, driven over --remote-debugging-pipe; one blank page. */
export async function launchChromium(executable: string, args: string[], profile: string, viewport: { width: number; height: number }): Promise<BareBrowser> {
  const proc: ChildProcess = spawn(executable, [...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, `--window-size=${viewport.width},${viewport.height}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const cdp = new Cdp(pipeTransport(proc.stdio[3] as Writable, proc.stdio[4] as Readable));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  try {
    const target = await waitForPageTarget(cdp, WAIT_TIMEOUT_MS);
    const page = await BarePage.attach(cdp, target);
    await page.setViewportSize(viewport);
    return {
      pid: proc.pid!,
      page,
      async close() {
        cdp.send('Browser.close').catch(() => undefined);
        const timer = setTimeout(() => proc.kill('SIGKILL'), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
        cdp.close();
      },
    };
  } catch (e) {
    proc.kill('SIGKILL');
    await exited;
    throw e;
  }
}

/** A Chromium someone else started with --remote-debugging-port: its one page window, attached. */
export async function connectChromium(port: number, timeoutMs: number): Promise<{ page: BarePage; close(): void }> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const cdp = new Cdp(await wsTransport(version.webSocketDebuggerUrl));
  const page = await BarePage.attach(cdp, await waitForPageTarget(cdp, timeoutMs));
  return { page, close: () => cdp.close() };
}

async function waitForPageTarget(cdp: Cdp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const page = targetInfos.find((t) => t.type === 'page');
    if (page) return page.targetId;
    if (Date.now() > deadline) throw new Error(`cdp: no page target in ${timeoutMs} ms`);
    await sleep(20);
  }
}
