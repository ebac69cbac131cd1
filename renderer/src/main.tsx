// The renderer's entry: zod jitless (CSP), the store, the connection, keys and
// quadrant reporting, then React. Order matters: jitless before any schema runs.
import './jitless';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { installAttention } from './attention';
import { App } from './components/App';
import { installKeyRouter } from './keys/keyRouter';
import { installQuadrantReporter } from './layout/quadrantReporter';
import { client } from './net/client';
import { wantedSession } from './net/endpoint';
import { selectSession, store } from './store';
import { bufferText, currentLook, existingTerm, installTerminals, rebalanceWebgl, rendererOf, selectionOf } from './term/terminals';
import { measureCell } from './ui/measureCell';

store.setState({ wantedSession: wantedSession() });
store.getState().setCell(measureCell(currentLook()));
void document.fonts?.ready.then(() => store.getState().setCell(measureCell(currentLook())));

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
installKeyRouter();
installQuadrantReporter();
void client.start();

// Exposed for end-to-end tests and debugging: the store, and what each terminal shows.
(window as unknown as { pane: unknown }).pane = { store, client, screen: bufferText, renderer: rendererOf, selection: selectionOf, term: (n: number) => existingTerm(n)?.term };

createRoot(document.getElementById('root') as HTMLElement).render(<App />);
