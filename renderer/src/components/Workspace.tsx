// The session on screen: tiles drawn from the server's split tree, dividers between
// them, floating panes above. Measures itself and tells the server its size in
// cells (session/viewport), which the server lays out and resizes in.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { draw } from '../layout/geometry';
import { client } from '../net/client';
import { selectSession, useApp } from '../store';
import { DividerBar } from './DividerBar';
import { FloatLayer } from './FloatLayer';
import { PaneFrame } from './PaneFrame';
import { EmptyHint } from './EmptyHint';

/** Wait for a resize to settle before telling the server: window drags fire many. */
const VIEWPORT_DEBOUNCE_MS = 120;

export function Workspace() {
  const ref = useRef<HTMLElement>(null);
  const session = useApp(selectSession);
  const cell = useApp((s) => s.cell);
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
  useEffect(() => {
    if (!sessionId || !vp || size.w === 0) return;
    const cols = Math.max(2, Math.floor(size.w / cell.w));
    const rows = Math.max(2, Math.floor(size.h / cell.h));
    if (cols === vp.cols && rows === vp.rows) return;
    const t = setTimeout(() => void client.act('session/viewport', { session: sessionId, cols, rows }), VIEWPORT_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [sessionId, vp?.cols, vp?.rows, size.w, size.h, cell.w, cell.h]);

  const drawing = useMemo(() => draw(session?.layout ?? null, session?.zoomed ?? null), [session?.layout, session?.zoomed]);
  const wsRect = useCallback(() => ref.current?.getBoundingClientRect(), []);
  const zoomedTile = session?.zoomed != null && drawing.tiles.length === 1 && drawing.tiles[0]?.pane === session.zoomed;

  return (
    <main className={`workspace${zoomedTile ? ' zoomed' : ''}`} ref={ref} aria-label={session ? `session ${session.name}` : 'no session'}>
      {drawing.tiles.map((t) => (
        <PaneFrame
          key={t.pane}
          pane={t.pane}
          style={{ left: `${t.rect.x * 100}%`, top: `${t.rect.y * 100}%`, width: `${t.rect.w * 100}%`, height: `${t.rect.h * 100}%` }}
        />
      ))}
      {drawing.dividers.map((d) => (
        <DividerBar key={d.path} d={d} />
      ))}
      <FloatLayer size={size} ws={wsRect} />
      {drawing.tiles.length === 0 && (session?.floating.length ?? 0) === 0 ? <EmptyHint /> : null}
    </main>
  );
}
