// All terminal bodies of this window: one TermView per pane, created on first
// sight and disposed when the pane closes. Routes output frames to them, re-attaches
// after a reconnect, sizes each to its server placement, hands out the WebGL budget.
import { standsIn } from '../bodies/traits';
import type { Placement } from '../../../kits/protocol/model';
import { client } from '../net/client';
import { SLOW_LINK_HISTORY } from '../net/link';
import { store } from '../store';
import { measureCell } from '../ui/measureCell';
import { attachTelling, deadKey, tellExit } from './deadPane';
import { chooseWebgl, DECAY, WEBGL_MAX, webgl2Supported, webglProbed } from './webglBudget';
import { lookOf, type Look } from './look';
import { TermView, webglReady, type TermHost } from './termView';
import { forSyncedPane, syncTargets } from './syncInput';

const views = new Map<number, TermView>();
/** Stand-ins of remote panes whose attach failed (their host was not joined): attached again when it is. */
const unattached = new Set<number>();
/** Panes last attached on a slow link, without their history: attached again with it if the link proves fast (net/link.ts). */
const historyless = new Set<number>();
/** Each stand-in's host link state as last seen here (remote.link). */
const linkSeen = new Map<number, string>();
/** ?webgl=0 turns WebGL off; ?webgl=1 uses it even where it is emulated in software (tests). */
let webglMode: 'auto' | 'off' | 'force' = 'auto';

const host: TermHost = {
  async attach(pane) {
    // On a slow link the visible screen alone (net/link.ts): it shows in a round trip, and only what is printed after follows.
    const slow = store.getState().conn.link?.slow === true;
    if (slow) historyless.add(pane);
    else historyless.delete(pane);
    return client.call('pty/attach', { pane, mode: 'snapshot', flowControl: true, ...(slow ? { history: SLOW_LINK_HISTORY } : {}) });
  },
  async attachFrom(pane, from, atInput) {
    return client.call('pty/attach', { pane, mode: 'from', from, flowControl: true, ...(atInput ? { atInput } : {}) });
  },
  ack(pane, bytes) {
    client.connection?.notify('pty/ack', { pane, bytes });
  },
  input(pane, data) {
    const viewer = store.getState().viewer;
    if (viewer?.mode === 'ro') {
      // A read-only guest types nothing: said once a spell, as a standing notice, not per key.
      store.getState().standing('read-only', 'info', `read-only: this window watches (grant ${viewer.id}); keys are not sent`);
      return;
    }
    const v = views.get(pane);
    if (v && deadKey(v, data)) {
      // The key goes to no program: no echo will come for a guess of it.
      v.echo.reset('dead key');
      return;
    }
    client.sendInput(pane, data);
    // Synced typing (input.sync): the same keys to the session's other terminal panes on screen.
    const st = store.getState();
    for (const n of syncTargets(st, pane, st.panes[pane]?.session ?? null)) client.sendInput(n, forSyncedPane(data, views.get(n)?.term.modes.bracketedPasteMode ?? false));
  },
  focused(pane) {
    const st = store.getState();
    const s = st.sessionId ? st.sessions[st.sessionId] : undefined;
    if (s && s.focused !== pane && store.getState().viewer?.mode !== 'ro') void client.act('pane/focus', { pane });
  },
  failed(pane, message) {
    if (standsIn(store.getState().panes[pane]?.kind)) unattached.add(pane);
    store.getState().notify('error', `pane ${pane}: could not attach: ${message}`);
  },
  remote(pane) {
    return isRemote(store.getState(), pane);
  },
  async patterns(pane) {
    if (plumbRefused || store.getState().viewer) return null;
    try {
      const r = await client.call('plumb/rules', { pane });
      return r.rules.flatMap((x) => (x.pattern !== undefined ? [x.pattern] : []));
    } catch (e) {
      // A server without a plumber, or one that plumbs nothing for this window: plain web links from now on.
      if ((e as { code?: string }).code === 'unknown-method' || (e as { code?: string }).code === 'denied') plumbRefused = true;
      return plumbRefused ? null : [];
    }
  },
  async fires(pane, text, click) {
    if (plumbRefused || store.getState().viewer) return false;
    return (await client.call('plumb/test', { pane, text, click })).fired;
  },
  plumb(pane, text, click) {
    void plumbClick(pane, text, click);
  },
};

/** Set once the server says it plumbs nothing for this window. */
let plumbRefused = false;

/** A click on plumbable text: the server's rules decide; an address to open comes back for this window to open. */
export async function plumbClick(pane: number, text: string, click: number | undefined): Promise<void> {
  const st = store.getState();
  if (plumbRefused || st.viewer) {
    if (/^https?:\/\//.test(text) && click === undefined) window.open(text, '_blank', 'noopener,noreferrer');
    return;
  }
  try {
    const r = await client.call('plumb/send', { pane, text, ...(click !== undefined ? { click } : {}) });
    if (r.open) window.open(r.open, '_blank', 'noopener,noreferrer');
    else if (!r.fired) st.notify('info', `plumb: ${r.action}`, pane);
    for (const e of r.errors) st.notify('warn', `plumbing rules: ${e.file}:${e.line}: ${e.message}`);
  } catch (e) {
    st.notify('error', `plumb: ${(e as Error).message}`, pane);
  }
}

/** A pane of another host: its keys cross a network ('auto' predictive echo guesses there from the first key). */
function isRemote(st: ReturnType<typeof store.getState>, pane: number): boolean {
  return standsIn(st.panes[pane]?.kind);
}

/** The pane's terminal, made (and attached) on first use. */
export function termFor(pane: number): TermView {
  let v = views.get(pane);
  if (!v) {
    v = new TermView(pane, host, store.getState().screenReader, currentLook());
    v.setPredictiveEcho(store.getState().settings.settings.predictiveEcho);
    views.set(pane, v);
    const pl = placementOf(store.getState(), pane);
    if (pl) v.setSize(pl.cols, pl.rows);
    attachOnConnection(v);
  }
  return v;
}

/** The connection each view was last attached on from here (termFor, a connect): a view made while the window connects is attached once, not again when it opens. */
const attachedOn = new WeakMap<TermView, object>();

/** Attaches `v` on the window's connection unless it was attached on that one already. */
function attachOnConnection(v: TermView): void {
  const c = client.connection;
  if (!c || attachedOn.get(v) === c) return;
  attachedOn.set(v, c);
  void attachTelling(v);
}

export function existingTerm(pane: number): TermView | undefined {
  return views.get(pane);
}

export function allTerms(): TermView[] {
  return [...views.values()];
}

/** The look terminals have now: the settings plus this window's zoom. */
export function currentLook(): Look {
  const st = store.getState();
  return lookOf(st.settings.settings, st.fontZoom);
}

function placementOf(st: ReturnType<typeof store.getState>, pane: number): Placement | undefined {
  const session = st.panes[pane]?.session;
  return session ? st.sessions[session]?.placements.find((p) => p.pane === pane) : undefined;
}

/** Wires terminals to the connection and the store; called once by main.tsx. */
export function installTerminals(): void {
  const flag = new URL(window.location.href).searchParams.get('webgl');
  webglMode = flag === '0' ? 'off' : flag === '1' ? 'force' : 'auto';
  client.onOutput((pane, offset, data) => {
    views.get(pane)?.write(offset, data);
    if (!webglProbed()) {
      // The first bytes of this page (a shell's first prompt, mostly): the WebGL check may now wait for them to stop, then for the idle moment after they are drawn.
      lastOutputAt = performance.now();
      if (firstOutputAt === undefined) {
        firstOutputAt = lastOutputAt;
        rebalanceWebgl();
      }
    }
  });
  // Views kept from a connection before (the socket dropped) attach again; those the snapshot made as this one opened are attached already.
  client.onConnected(() => {
    for (const v of views.values()) attachOnConnection(v);
  });
  store.subscribe(syncViews);
  setInterval(rebalanceWebgl, 1000);
}

// Keep views in step with the panes that exist: dispose the closed ones.
function syncViews(st: ReturnType<typeof store.getState>, prev: ReturnType<typeof store.getState>): void {
  if (st.panes !== prev.panes || (st.conn.state === 'open' && prev.conn.state !== 'open')) {
    for (const [n, v] of views) {
      if (!st.panes[n] && st.conn.state === 'open') {
        v.dispose();
        views.delete(n);
      }
    }
  }
  if (st.panes !== prev.panes) for (const v of views.values()) tellExit(v);
  if (st.panes !== prev.panes && st.conn.state === 'open') {
    for (const [n, v] of views) {
      const p = st.panes[n];
      if (!p || !standsIn(p.kind)) continue;
      // A stand-in is attached again when its host is joined again after it was not (the host left
      // and rejoined frees the server's stream) or after its attach failed; a stale link resumes by itself.
      const link = p.attrs['remote.link'] ?? '';
      const was = linkSeen.get(n);
      linkSeen.set(n, link);
      const back = link === 'connected' && was !== undefined && was !== 'connected' && was !== 'stale';
      if (link === 'connected' && (unattached.has(n) || back)) {
        unattached.delete(n);
        void attachTelling(v);
      }
    }
    for (const n of unattached) if (!views.has(n)) unattached.delete(n);
    for (const n of linkSeen.keys()) if (!views.has(n)) linkSeen.delete(n);
  }
  // Sizes follow placements here, synchronously as the event is applied, not after
  // React renders: output sent for the new size may be written right after this.
  if (st.sessions !== prev.sessions) {
    for (const s of Object.values(st.sessions)) {
      if (s === prev.sessions[s.id]) continue;
      for (const pl of s.placements) views.get(pl.pane)?.setSize(pl.cols, pl.rows);
    }
  }
  if (st.screenReader !== prev.screenReader) for (const v of views.values()) v.setScreenReader(st.screenReader);
  if (st.settings !== prev.settings || st.fontZoom !== prev.fontZoom) applyLook();
  if (st.settings !== prev.settings) for (const v of views.values()) v.setPredictiveEcho(st.settings.settings.predictiveEcho);
  if (st.conn.state !== 'open' && prev.conn.state === 'open') for (const v of views.values()) v.detached();
  // A link judged slow at connect that proved fast when measured again: the history each pane's attach left behind is pulled now.
  if (st.conn.state === 'open' && prev.conn.state === 'open' && prev.conn.link?.slow === true && st.conn.link?.slow === false) {
    for (const n of [...historyless]) {
      const v = views.get(n);
      historyless.delete(n);
      if (v) void attachTelling(v);
    }
  }
}

/** Applies the current look to every terminal, the window's colours and the measured cell. */
function applyLook(): void {
  const look = currentLook();
  for (const v of views.values()) v.setLook(look);
  for (const [k, val] of Object.entries(look.chrome)) document.documentElement.style.setProperty(k, val);
  const st = store.getState();
  st.setCell(measureCell(look));
  // A font that loads late changes the cell again.
  void document.fonts?.load(`${look.fontSize}px ${look.fontFamily}`).then(() => store.getState().setCell(measureCell(currentLook())), () => undefined);
}

/**
 * Longest wait for an idle moment before WebGL is first checked for: the check makes
 * a context (~16 ms of a headless page's first frame), and the first prompt is drawn
 * by the DOM renderer anyway while the WebGL addon's chunk loads.
 */
const WEBGL_PROBE_IDLE_MAX_MS = 1000;
/**
 * How long the page's first output must pause before the WebGL check is queued. A prompt
 * comes in pieces: bash's PROMPT_COMMAND prints its OSC 7 (the cwd), then bash writes PS1,
 * and the two can reach the page as two frames; a check queued at the first one ran, on
 * loaded cores, with an empty screen and the prompt waiting behind it. A pause this long
 * ends a burst of frames read from one PTY and parsed by xterm.js (a 0 ms timer) well
 * within it, and costs nothing seen: the DOM renderer draws meanwhile.
 */
const WEBGL_PROBE_QUIET_MS = 100;
/** Longest the check waits for the first output to pause: a pane that floods from its start still gets it. */
const WEBGL_PROBE_QUIET_MAX_MS = 2000;
/**
 * The check waits for the page's first output to pause, then for the idle moment after it. Queued
 * at the first focus, its idle moment was the window's wait for the shell's first prompt,
 * and a prompt arriving during the check's 6-13 ms waited for it to be parsed and drawn
 * (a CPU profile of a cold page: the check at 440-470 ms, the prompt at ~470). A window
 * whose panes print nothing draws them with the DOM renderer until one does.
 */
let probeQueued = false;
/** When output first reached this page (the WebGL check may be queued once it pauses), and when it last did. */
let firstOutputAt: number | undefined;
let lastOutputAt = 0;

/** Re-deals WebGL contexts: called every second and whenever focus moves. */
export function rebalanceWebgl(): void {
  if (webglMode === 'off') return;
  if (!webglProbed()) {
    if (!probeQueued && firstOutputAt !== undefined) {
      probeQueued = true;
      const quiet = () => {
        const now = performance.now();
        const wait = lastOutputAt + WEBGL_PROBE_QUIET_MS - now;
        if (wait > 0 && now - firstOutputAt! < WEBGL_PROBE_QUIET_MAX_MS) return void setTimeout(quiet, wait);
        if (window.requestIdleCallback) window.requestIdleCallback(later, { timeout: WEBGL_PROBE_IDLE_MAX_MS });
        else setTimeout(later, 0);
      };
      const later = () => {
        webgl2Supported(webglMode === 'force');
        rebalanceWebgl();
      };
      setTimeout(quiet, WEBGL_PROBE_QUIET_MS);
    }
    return;
  }
  if (!webgl2Supported(webglMode === 'force')) return;
  const st = store.getState();
  const s = st.sessionId ? st.sessions[st.sessionId] : undefined;
  const want = chooseWebgl(
    [...views.values()].map((v) => ({ pane: v.pane, visible: v.mounted && !v.webglFailed, activity: v.activity })),
    s?.focused ?? null,
    WEBGL_MAX,
    new Set([...views.values()].filter((v) => v.usesWebgl).map((v) => v.pane)),
  );
  // Release first so the browser never sees more than the budget at once.
  for (const v of views.values()) if (!want.has(v.pane) && v.usesWebgl) v.setWebgl(false);
  // The addon loads on first need; the panes are dealt again once it has.
  if (want.size > 0 && webglReady(rebalanceWebgl)) for (const v of views.values()) if (want.has(v.pane)) v.setWebgl(true);
  for (const v of views.values()) v.activity *= DECAY;
}

/** The text a pane's terminal holds (scrollback + screen), as drawn: for tests and debugging. */
export function bufferText(pane: number): string | null {
  const v = views.get(pane);
  if (!v) return null;
  const b = v.term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < b.length; i++) lines.push(b.getLine(i)?.translateToString(true) ?? '');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** A pane's predictive echo now: the guesses drawn, how many wait, the echo-delay estimate, the last drop. For tests and debugging. */
export function echoOf(pane: number): { shown: string; pending: number; rttMs: number | null; lastDrop: string | null; lastReset: string | null; drops: number; dropsBy: Record<string, number>; lastMismatch: string | null; mode: string } | null {
  const v = views.get(pane);
  if (!v) return null;
  const p = v.echo.predictor;
  return { shown: v.echo.shown, pending: p.count, rttMs: p.rttMs, lastDrop: p.lastDrop, lastReset: p.lastReset, drops: p.drops, dropsBy: { ...p.dropsBy }, lastMismatch: p.lastMismatch, mode: p.mode };
}

/** Which renderer each pane draws with right now (webgl or dom). */
export function rendererOf(pane: number): 'webgl' | 'dom' | null {
  const v = views.get(pane);
  return v ? (v.usesWebgl ? 'webgl' : 'dom') : null;
}

/** The terminal's current selection (what find highlighted, or the mouse chose). */
export function selectionOf(pane: number): string | null {
  return views.get(pane)?.term.getSelection() ?? null;
}
