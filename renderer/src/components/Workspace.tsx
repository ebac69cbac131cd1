// The session on screen, drawn exactly as the server placed it: each pane's frame
// at its cells times the measured cell size, dividers between tiles, floats above.
// Measures itself and tells the server its size in cells and what a frame costs
// (session/viewport), once per window or font change; it never sizes a PTY itself.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { dividers } from '../../../kits/layout/geometry';
import { chromeFor } from '../layout/frame';
import { client } from '../net/client';
import { selectSession, useApp } from '../store';
import { DividerBar } from './DividerBar';
import { FloatLayer } from './Deferred';
import { PaneFrame } from './PaneFrame';
import { EmptyHint } from './EmptyHint';

/** Wait for a resize to settle before telling the server: window drags fire many. */
const VIEWPORT_DEBOUNCE_MS = 120;

export function Workspace() {
  const ref = useRef<HTMLElement>(null);
  const session = useApp(selectSession);
  const cell = useApp((s) => s.cell);
  const measured = useApp((s) => s.cellMeasured);
  const [size, setSize] = useState({ w: 0, h: 0 });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const sessionId = session?.id;
  const vp = session?.viewport;
  const hasViewport = vp !== undefined;
  const guest = useApp((s) => s.viewer !== null);
  const online = useApp((s) => s.conn.state === 'open');
  const stale = useApp((s) => s.conn.stale === true);
  /** What this window last told the server (session, its size in cells, its chrome), since it connected. */
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!online) reported.current = null; // a new connection (a restarted server) is told again
    // A grant's guest never resizes the person's panes: it shows them at the size the person's window gives them.
    if (!online || !sessionId || !hasViewport || size.w === 0 || !measured || guest) return;
    const cols = Math.max(2, Math.floor(size.w / cell.w));
    const rows = Math.max(2, Math.floor(size.h / cell.h));
    const chrome = chromeFor(cell);
    // Said when this window's own size (or the session it shows) changes, never because the session's size did: another
    // window of another size set that (the windowSize policy chose it), and answering with ours would flip it back and
    // forth between the two windows. Said once per session shown even when it matches (session/attach tells such windows).
    const key = `${sessionId} ${cols}x${rows} ${chrome.cols}x${chrome.rows}`;
    if (reported.current === key) return;
    const t = setTimeout(() => {
      reported.current = key;
      void client.act('session/viewport', { session: sessionId, cols, rows, chrome: { ...chrome, cell: { w: cell.w, h: cell.h } } });
    }, VIEWPORT_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [online, sessionId, hasViewport, size.w, size.h, cell.w, cell.h, measured, guest]);

  const placements = session?.placements;
  const tiles = useMemo(() => (placements ?? []).filter((p) => p.shown && !p.floating), [placements]);
  const zoomedTile = session?.zoomed != null && tiles.some((t) => t.pane === session.zoomed);
  // A context's zoom (session/context) moves no placement: the zoomed pane is shown alone, at its own size, from the top left.
  const contextZoom = zoomedTile && tiles.length > 1;
  const shownTiles = contextZoom ? tiles.filter((t) => t.pane === session!.zoomed).map((t) => ({ ...t, x: 0, y: 0 })) : tiles;
  const lines = useMemo(() => (session && !zoomedTile && session.zoomed === null ? dividers(session.layout, session.viewport) : []), [session?.layout, session?.viewport, session?.zoomed, zoomedTile]);
  const wsRect = useCallback(() => ref.current?.getBoundingClientRect(), []);

  return (
    <main className={`workspace${zoomedTile ? ' zoomed' : ''}${stale ? ' stale' : ''}`} ref={ref} aria-label={session ? `session ${session.name}` : 'no session'}>
      <h1 className="sr-only">{session ? `pane: session ${session.name}` : 'pane'}</h1>
      {shownTiles.map((t) => {
        const left = t.x * cell.w;
        const top = t.y * cell.h;
        // A tile on the view's right or bottom edge reaches the window's edge; its
        // terminal keeps the cells it was given (the spare pixels are background).
        const width = vp && t.x + t.w === vp.cols && size.w > 0 ? Math.max(t.w * cell.w, size.w - left) : t.w * cell.w;
        const height = vp && t.y + t.h === vp.rows && size.h > 0 ? Math.max(t.h * cell.h, size.h - top) : t.h * cell.h;
        return <PaneFrame key={t.pane} pane={t.pane} style={{ left, top, width, height }} />;
      })}
      {lines.map((d) => (
        <DividerBar key={d.path} d={d} cell={cell} />
      ))}
      {(session?.floating.length ?? 0) > 0 ? <FloatLayer size={size} ws={wsRect} /> : null}
      {tiles.length === 0 && (session?.floating.length ?? 0) === 0 ? <EmptyHint /> : null}
    </main>
  );
}
