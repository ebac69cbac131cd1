// The window's link to the pane server: connects, says hello, subscribes (state
// first, then events into the store), fetches keymap and apps, and reconnects with
// backoff when the socket drops. A new Connection per link, since one is single-use.
import { judgeLink, linkSaid, LinkWatch, recheckLink } from './link';
import { checkResults, Connection } from '../../../kits/client/index';
import type { AppList } from '../../../kits/protocol/app';
import { isStoppedFault, PaneFault } from '../../../kits/protocol/error';
import { eventSchemas, type EventData, type EventName } from '../../../kits/protocol/events';
import type { MethodName, ParamsIn, Result } from '../../../kits/protocol/index';
import type { KeymapState } from '../../../kits/protocol/keymap';
import type { SettingsState } from '../../../kits/protocol/settings';
import type { AwarenessNotice } from '../../../kits/protocol/awareness';
import { store } from '../store';
import { configNotices, type ConfigError } from './configNotices';
import { findEndpoint, forgetGrant, takeEarlySocket } from './endpoint';
import { BrowserWsTransport } from './browserWsTransport';

type Listener = (conn: Connection) => void;

/** Where awareness notices go: notices.ts, installed by main.tsx (so net/ does not import what imports it). */
export interface NoticeSink {
  arrived(n: AwarenessNotice): void;
  withdrawn(d: EventData<'awareness/notice-withdrawn'>): void;
  loaded(list: AwarenessNotice[]): void;
}

/** Backoff between reconnect attempts: quick at first (a server restart), then patient. */
const BACKOFF_MS = [100, 250, 500, 1000, 2000];
/**
 * Failed connects before the window says, in a standing notice, that the server is not
 * answering and why: the fifth comes ~2 s into the backoff above, so a dropped socket
 * that connects again at once passes without one, and a stopped daemon is said (the
 * notice goes once the window connects again).
 */
const SAY_DOWN_AFTER_ATTEMPTS = 5;
/** The standing notice's key while the server does not answer. */
const DOWN_NOTICE = 'conn:down';
/** Standing while the daemon runs code an update replaced on disk (server/codeOnDisk.ts). */
const OLD_CODE_NOTICE = 'conn:old-code';
/** Short, as the strip shows ~80 characters: the way out first. Its tooltip and the history have it whole; `pane info` says the rest. */
const OLD_CODE_TEXT = 'pane was updated: restart its server to run the new code (pane stop, then start pane; shells and agents come back at once)';

/**
 * A config file's errors as standing notices, one per file (configNotices.ts): shown until the
 * file is fixed, then withdrawn ("fixed"), not left on screen after the fix (issue 34).
 */
function configErrors(kind: 'keymap' | 'settings' | 'apps', errors: readonly ConfigError[], kept: string): void {
  const st = store.getState();
  const prefix = `config:${kind}:`;
  const now = new Set<string>();
  for (const n of configNotices(kind, errors, kept)) {
    now.add(n.key);
    st.standing(n.key, 'error', n.text);
  }
  for (const n of store.getState().notices) if (n.key?.startsWith(prefix) && !now.has(n.key)) st.withdraw(n.key, `${n.text.split(': ')[0]}: fixed`);
}

/** One small request's round trip on `conn`, in ms: how the link is measured after connect (net/link.ts). */
async function timeRoundTrip(conn: Connection): Promise<number> {
  const at = performance.now();
  await conn.call('server/info', {});
  return performance.now() - at;
}

export class Client {
  private conn: Connection | null = null;
  private readonly onConnect: Listener[] = [];
  private outputCb: ((pane: number, offset: number, data: Uint8Array) => void) | null = null;
  private attempt = 0;
  /** The server's word, as its connection closed, that a client stopped it (`pane stop`): said at once, not after the retries. */
  private stoppedWord: string | null = null;
  private notices: NoticeSink | null = null;
  /** The open connection's link watch (net/link.ts): a small question every few seconds, the link judged again, silence said and acted on. */
  private watch: LinkWatch | null = null;

  /** Hands awareness notices (events and the list loaded at connect) to the sink. */
  setNoticeSink(s: NoticeSink): void {
    this.notices = s;
  }

  /** The live connection, or null while (re)connecting. */
  get connection(): Connection | null {
    return this.conn && !this.conn.closed ? this.conn : null;
  }

  /**
   * A link measured slow at connect, measured again (net/link.ts): where it proves
   * fast, the window says so and each pane attached without its history is attached
   * again with it (terminals.ts).
   */
  private async recheckLink(conn: Connection): Promise<void> {
    const best = await recheckLink(() => timeRoundTrip(conn), (ms) => new Promise((r) => setTimeout(r, ms)), () => this.conn === conn && store.getState().conn.state === 'open');
    if (best === null) return;
    const link = judgeLink(best);
    if (link.slow) return;
    this.watch?.setLink(link);
    store.getState().setConn({ ...store.getState().conn, state: 'open', link });
  }

  /** Starts watching an open connection's link (net/link.ts LinkWatch); it ends with the connection. */
  private watchLink(conn: Connection, t: BrowserWsTransport, link: { rttMs: number; slow: boolean }): void {
    this.watch?.stop();
    const mine = () => this.conn === conn && !conn.closed;
    const watch = new LinkWatch(link, {
      probe: () => timeRoundTrip(conn),
      now: () => performance.now(),
      heardAt: () => t.heardAt,
      judged: (l) => {
        if (mine()) store.getState().setConn({ ...store.getState().conn, state: 'open', link: l });
      },
      silent: (ms) => {
        if (!mine()) return;
        const c = { ...store.getState().conn };
        delete c.silentMs;
        if (ms !== null) c.silentMs = ms;
        store.getState().setConn(c);
      },
      dead: (why) => {
        // Closing the socket ends the connection: lost() then connects again with the usual backoff.
        if (mine()) t.close(`${why}; connecting again`);
      },
    }).start();
    this.watch = watch;
    conn.onClose(() => {
      watch.stop();
      if (this.watch === watch) this.watch = null;
    });
  }

  /** Called after every successful (re)connect, once state is loaded. */
  onConnected(cb: Listener): void {
    this.onConnect.push(cb);
  }

  onOutput(cb: (pane: number, offset: number, data: Uint8Array) => void): void {
    this.outputCb = cb;
  }

  call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    const c = this.connection;
    if (!c) return Promise.reject(new PaneFault('failed', 'not connected to the pane server'));
    return c.call(method, params);
  }

  /**
   * A call whose failure becomes a visible notice instead of an unhandled rejection.
   * The notice is the server's sentence alone: the method name is protocol, not news.
   */
  act<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M> | undefined> {
    return this.call(method, params).catch((e: unknown) => {
      store.getState().notify('error', e instanceof Error ? e.message : String(e));
      return undefined;
    });
  }

  sendInput(pane: number, data: Uint8Array): void {
    this.connection?.sendInput(pane, data);
  }

  async start(): Promise<void> {
    const st = store.getState();
    // A retry after a loss stays `closed` (reconnecting…) with the last try's reason and dim until it connects:
    // the status line's tooltip and the stale screens do not flicker with each try.
    if (st.conn.state !== 'closed') st.setConn({ state: 'connecting' });
    let t: BrowserWsTransport | undefined;
    let reached = false;
    try {
      const ep = await findEndpoint();
      t = new BrowserWsTransport(ep.url, takeEarlySocket());
      await t.opened;
      reached = true;
      performance.mark('pane:ws');
      const conn = new Connection(t, { checkResult: checkResults });
      this.wire(conn);
      const helloAt = performance.now();
      const welcome = await conn.hello({ client: { name: 'pane renderer', kind: 'renderer' }, capabilities: ['read', 'write', 'attach', 'admin'], ...(ep.token ? { token: ep.token } : {}), ...(ep.grant ? { grant: ep.grant } : {}) });
      // A grant's guest: read-only or read-write, until its expiry (the status line says so; ro never types).
      store.getState().setViewer(welcome.grant ?? null);
      store.getState().setMe(welcome.user);
      performance.mark('pane:hello');
      // The link, measured: its round trip decides how much history each pane's attach pulls (net/link.ts).
      // The lesser of two round trips (the hello's, a small request's): a first hello also waits on the page's and the server's start.
      const helloRtt = performance.now() - helloAt;
      // The small request and the subscription go out together (one round trip, not two, before
      // the window opens); the small one's answer comes first and times the link on its own.
      const infoAt = performance.now();
      let infoRtt = Infinity;
      let codeReplaced = false;
      const info = conn.call('server/info', {}).then(
        (i) => void ((infoRtt = performance.now() - infoAt), (codeReplaced = i.codeReplaced === true)),
        () => undefined,
      );
      // Not 'output' (this window attaches to streams) nor 'client': events it would only drop.
      // 'agent': an agent's state, prompt or mail changed — widgets bound to /agents read again (a pane-less agent changes no pane).
      const snap = await conn.call('events/subscribe', { families: ['pane', 'layout', 'focus', 'session', 'config', 'awareness', 'agent'] });
      await info;
      performance.mark('pane:subscribed');
      const link = judgeLink(Math.min(helloRtt, infoRtt));
      // Known before any pane attaches (the snapshot below makes the panes, and their attach asks by it).
      store.getState().setConn({ state: 'connecting', link });
      this.conn = conn;
      store.getState().applySnapshot(snap);
      await this.followContext(conn);
      this.attempt = 0;
      this.stoppedWord = null;
      store.getState().setConn({ state: 'open', link });
      store.getState().withdraw(DOWN_NOTICE, 'connected again');
      // The daemon outlives an update: it runs the old code while this window may be the new one's.
      if (codeReplaced) store.getState().standing(OLD_CODE_NOTICE, 'warn', OLD_CODE_TEXT);
      else store.getState().withdraw(OLD_CODE_NOTICE, 'the pane server runs the code on disk');
      // Start-up phases for the cold-start bench (bench/startPath.ts) and the Performance panel.
      performance.mark('pane:open');
      if (link.slow && linkSaid() === null) void this.recheckLink(conn);
      this.watchLink(conn, t, link);
      conn.onClose((reason) => this.lost(reason));
      void this.loadConfig(conn);
      for (const cb of this.onConnect) cb(conn);
    } catch (e) {
      // A refused hello (wrong secret) or a failed subscribe: drop this socket before retrying.
      t?.close('connect failed');
      const why = e instanceof Error ? e.message : String(e);
      if (e instanceof PaneFault && e.code === 'unauthorized' && (this.grantRefused(why) || (reached && this.unknownWindow(why)))) return;
      this.lost(why, !reached);
    }
  }

  private wire(conn: Connection): void {
    // Events cross a process boundary: each is validated against its schema, and a
    // malformed one is dropped (and said), never drawn.
    for (const name of Object.keys(eventSchemas) as EventName[]) {
      conn.events.on(name, (data, rev) => {
        const ok = eventSchemas[name].safeParse(data);
        if (!ok.success) return store.getState().notify('error', `dropped a malformed ${name} event from the server`);
        if (name === 'keymap/changed') this.keymapArrived(ok.data as EventData<'keymap/changed'>);
        else if (name === 'apps/changed') this.appsArrived(ok.data as EventData<'apps/changed'>);
        else if (name === 'settings/changed') this.settingsArrived(ok.data as EventData<'settings/changed'>);
        else if (name === 'awareness/notice') this.notices?.arrived((ok.data as EventData<'awareness/notice'>).notice);
        else if (name === 'awareness/notice-withdrawn') this.notices?.withdrawn(ok.data as EventData<'awareness/notice-withdrawn'>);
        else store.getState().applyEvent(name, ok.data as EventData<typeof name>, rev);
      });
    }
    conn.onOutput((pane, offset, data) => this.outputCb?.(pane, offset, data));
    conn.onError((e) => {
      // Its connection closes next: lost() says it, as the window's standing state, not as a passing error.
      if (isStoppedFault(e)) this.stoppedWord = e.message;
      else store.getState().notify('error', e.message);
    });
  }

  /**
   * The context this window follows (`?context=NAME`; a grant's guest always one, its
   * own unless named): its focus and zoom are its own, over the session's.
   */
  private async followContext(conn: Connection): Promise<void> {
    const st = store.getState();
    const wanted = new URLSearchParams(location.search).get('context');
    if (!st.sessionId || (wanted === null && st.viewer === null)) return st.setContext(null);
    const r = await conn.call('session/context', { session: st.sessionId, ...(wanted !== null ? { context: wanted } : {}) }).catch((e: unknown) => {
      st.notify('error', e instanceof Error ? e.message : String(e));
      return undefined;
    });
    st.setContext(r && r.context !== null ? { name: r.context, session: r.session, focused: r.focused, zoomed: r.zoomed } : null);
  }

  private keymapArrived(k: KeymapState): void {
    store.getState().setKeymap(k);
    configErrors('keymap', k.errors, ' (previous keymap kept)');
  }

  private settingsArrived(s: SettingsState): void {
    store.getState().setSettings(s);
    configErrors('settings', s.errors, ' (previous settings kept)');
  }

  private appsArrived(a: AppList): void {
    store.getState().setApps(a);
    configErrors('apps', a.errors, '');
  }

  private async loadConfig(conn: Connection): Promise<void> {
    // Servers without the config handler answer unknown-method: keep the defaults. Any
    // other refusal (too-large: a keymap or app list past a frame) is shown, not swallowed.
    const shown = (e: PaneFault) => (e.code === 'unknown-method' ? undefined : store.getState().notify('error', e.message));
    await conn.call('keymap/get', {}).then((k) => this.keymapArrived(k), shown);
    await conn.call('apps/list', {}).then((a) => this.appsArrived(a), shown);
    await conn.call('settings/get', {}).then((s) => this.settingsArrived(s), shown);
    // Servers without awareness answer an error: no convergence notices then.
    // A grant's guest sees no convergence notices (they name agents' messages): not asked.
    if (store.getState().viewer === null) await conn.call('awareness/notices', {}).then((r) => this.notices?.loaded(r.notices), () => undefined);
  }

  /**
   * A grant that no longer lets this window in (revoked, expired, mistyped): retrying
   * cannot help, so the window stops, says why, and forgets the grant (this tab
   * opens as the person's only through a launch URL again). True when that was it.
   */
  /**
   * The server answered and does not let this window in: a page opened from `pane url`
   * whose server was started again since (its launch cookie is a new one), or a page that
   * lost its pass. No retry can mend that, so the window says what will, and stops: it
   * had said the server was not answering and kept trying forever. A window whose host
   * holds its pass (Electron's bridge) is not one: its bridge asks again.
   */
  private unknownWindow(why: string): boolean {
    if (window.paneHost) return false;
    const st = store.getState();
    this.conn = null;
    st.setConn({ state: 'ended', detail: why });
    st.standing(DOWN_NOTICE, 'error', `the pane server does not know this window (it was started again since this page opened): open a new window at the address pane url prints · ${why}`);
    return true;
  }

  private grantRefused(why: string): boolean {
    const st = store.getState();
    if (st.viewer === null && !forgetGrant()) return false;
    forgetGrant();
    // The viewer stays as it was (its tags keep no words); the window is done.
    st.withdraw('read-only', 'the grant ended');
    this.conn = null;
    st.setConn({ state: 'ended', detail: why });
    st.standing('grant', 'error', `this window's grant no longer lets it in: ${why}`);
    return true;
  }

  /**
   * The connection is gone (or a try failed): say so as the window's standing state, then
   * try again. `unreached`: this try's socket did not even open — the address this page
   * came from no longer answers (npm start's bridge ends with a stopped server), not only the server behind it.
   */
  private lost(reason: string, unreached = false): void {
    if (this.conn && !this.conn.closed) return;
    this.conn = null;
    const stopped = this.stoppedWord;
    // The screens left are no longer live once that is said (a stop asked for, or the retries so far have failed): dimmed.
    const say = stopped !== null || this.attempt + 1 >= SAY_DOWN_AFTER_ATTEMPTS;
    store.getState().setConn({ state: 'closed', detail: stopped ?? reason, stale: say });
    // What to do first (a narrow strip cuts the end); then the reason, the bridge's or the server's words: shown as text, never markup.
    // A grant's guest cannot start someone else's server: it is told only that the window keeps trying.
    const guest = store.getState().viewer !== null;
    if (stopped !== null && unreached) {
      // The bridge that served this page ended with the server: a new one has a new address (and a new secret), printed by npm start.
      // Its todo ends with why this page cannot simply come back.
      const todo = guest ? 'this page’s address ended with it, and this window keeps trying it' : 'run pane start (npm start in a checkout) and open the address it prints; this page’s address ended with it';
      store.getState().standing(DOWN_NOTICE, 'error', `the pane server was stopped: ${todo} · ${stopped}`);
    } else if (stopped !== null) {
      const todo = guest ? 'this window connects again by itself if it is started again' : 'start it again with pane start (npm start in a checkout), and this window connects again by itself';
      store.getState().standing(DOWN_NOTICE, 'error', `the pane server was stopped: ${todo} · ${stopped}`);
    } else if (say) {
      const todo = guest ? 'this window connects again by itself once it answers' : 'if it was stopped, start it with pane start (npm start in a checkout), and this window connects again by itself';
      store.getState().standing(DOWN_NOTICE, 'error', `the pane server is not answering: ${todo} · ${reason}`);
    }
    const wait = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)] ?? 2000;
    setTimeout(() => void this.start(), wait);
  }
}

export const client = new Client();
