// The renderer's entry: zod jitless (CSP), the store, the connection, keys, the
// measured cell, then React. Order matters: jitless before any schema runs.
import { imagesReady } from './term/images';
import './jitless';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { installAttention } from './attention';
import { noticeArrived, noticesLoaded, noticeWithdrawn } from './notices';
import { App } from './components/App';
import { preloadDeferred } from './components/Deferred';
import { installKeyRouter } from './keys/keyRouter';
import { applyFrameCss } from './layout/frame';
import { client } from './net/client';
import { wantedSession } from './net/endpoint';
import { selectSession, store } from './store';
import { allTerms, bufferText, currentLook, echoOf, existingTerm, installTerminals, rebalanceWebgl, rendererOf, selectionOf } from './term/terminals';
import { measureCell } from './ui/measureCell';

/** How long after connecting the deferred chunks wait: past the first prompt (attach, replay, first draw). */
const PRELOAD_AFTER_CONNECT_MS = 1500;
/** Longest wait after that for an idle moment before they are fetched anyway. */
const PRELOAD_IDLE_MAX_MS = 1000;

performance.mark('pane:main');
store.setState({ wantedSession: wantedSession() });
// The socket first: its handshake runs while the rest of this task sets the page up.
void client.start();
applyFrameCss();
// A first guess now; the measurement that counts once the fonts are in, and again
// whenever the device pixel ratio changes (browser zoom, a move to another screen).
store.getState().setCell(measureCell(currentLook()), false);
const remeasure = () => store.getState().setCell(measureCell(currentLook()));
void (document.fonts?.ready ?? Promise.resolve()).then(remeasure);
const watchDpr = () => {
  const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
  mq.addEventListener('change', () => {
    remeasure();
    watchDpr();
  }, { once: true });
};
watchDpr();

// Focus history feeds the switcher; a focus move also re-deals WebGL contexts.
store.subscribe((st, prev) => {
  const f = selectSession(st)?.focused ?? null;
  if (f !== null && f !== (selectSession(prev)?.focused ?? null)) {
    st.touchFocus(f);
    rebalanceWebgl();
  }
});

installTerminals();
installAttention();
client.setNoticeSink({ arrived: noticeArrived, withdrawn: noticeWithdrawn, loaded: noticesLoaded });
installKeyRouter();
// The deferred chunks (overlays, copy mode, find, floats; ~60 KB) are fetched a while
// after the window connects, when the page is idle: fetched at connect they delayed the
// first prompt by ~100 ms (measured); a key that opens one before they are in still works.
let preloading = false;
client.onConnected(() => {
  if (preloading) return;
  preloading = true;
  const whenIdle = () => (window.requestIdleCallback ? window.requestIdleCallback(preloadDeferred, { timeout: PRELOAD_IDLE_MAX_MS }) : preloadDeferred());
  setTimeout(whenIdle, PRELOAD_AFTER_CONNECT_MS);
});

// Exposed for end-to-end tests and debugging: the store, and what each terminal shows.
(window as unknown as { pane: unknown }).pane = { store, client, measureCell, screen: bufferText, renderer: rendererOf, selection: selectionOf, term: (n: number) => existingTerm(n)?.term, redrawHeld: (n: number) => existingTerm(n)?.redrawHeld ?? false, attaching: () => allTerms().filter((v) => v.attaching).length, echo: echoOf, imagesReady };

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
