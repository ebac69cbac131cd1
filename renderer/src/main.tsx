// The renderer's entry: zod jitless (CSP), the store, the connection, keys, the
// measured cell, then React. Order matters: jitless before any schema runs.
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
import { bufferText, currentLook, existingTerm, installTerminals, rebalanceWebgl, rendererOf, selectionOf } from './term/terminals';
import { measureCell } from './ui/measureCell';

performance.mark('pane:main');
store.setState({ wantedSession: wantedSession() });
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
void client.start();
// The deferred chunks (overlays, copy mode, find, floats) are fetched as soon as the
// window is connected: ~60 KB, and then a key that opens one finds it ready.
client.onConnected(() => preloadDeferred());

// Exposed for end-to-end tests and debugging: the store, and what each terminal shows.
(window as unknown as { pane: unknown }).pane = { store, client, screen: bufferText, renderer: rendererOf, selection: selectionOf, term: (n: number) => existingTerm(n)?.term };

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
