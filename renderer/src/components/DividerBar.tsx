// A draggable divider between two sides of a split. Dragging (or arrow keys when
// focused) sends pane/ratio — or pane/resize where no pane names this split alone —
// and the tiles move when the server's layout/changed arrives, not before.
// Positions are in cells of the view (kits/layout), drawn at the measured cell size.
import { useRef, type CSSProperties, type PointerEvent as RPointerEvent } from 'react';
import { ratioAt, type Divider } from '../../../kits/layout/geometry';
import { client } from '../net/client';
import { selectSession, store } from '../store';

/** Sends at most one request at a time; the latest wanted ratio wins. */
function makeSender(getDivider: () => Divider) {
  let inFlight = false;
  let wanted: number | null = null;
  const pump = async () => {
    if (inFlight || wanted === null) return;
    const ratio = wanted;
    wanted = null;
    inFlight = true;
    try {
      await sendRatio(getDivider(), ratio);
    } finally {
      inFlight = false;
      void pump();
    }
  };
  return (ratio: number) => {
    wanted = ratio;
    void pump();
  };
}

async function sendRatio(d: Divider, ratio: number): Promise<void> {
  if (Math.abs(ratio - d.ratio) < 0.5) return;
  if (d.ratioPane !== null) {
    await client.act('pane/ratio', { pane: d.ratioPane, direction: d.direction, ratio });
    return;
  }
  // Nested same-direction splits leave no pane whose nearest split is this one: move
  // the edge of the pane just before the divider by the equivalent number of cells.
  if (!selectSession(store.getState())) return;
  const span = d.direction === 'horizontal' ? d.split.w : d.split.h;
  const cells = Math.round(((ratio - d.ratio) / 100) * span);
  if (cells === 0) return;
  const dir = d.direction === 'horizontal' ? (cells > 0 ? 'right' : 'left') : cells > 0 ? 'down' : 'up';
  await client.act('pane/resize', { pane: d.edgePane, direction: dir, cells: Math.abs(cells) });
}

export function DividerBar({ d, cell }: { d: Divider; cell: { w: number; h: number } }) {
  const dRef = useRef(d);
  dRef.current = d;
  const send = useRef(makeSender(() => dRef.current)).current;
  const horizontal = d.direction === 'horizontal';
  const style: CSSProperties = horizontal
    ? { left: d.line.x * cell.w, top: d.line.y * cell.h, height: d.line.h * cell.h }
    : { left: d.line.x * cell.w, top: d.line.y * cell.h, width: d.line.w * cell.w };

  const fromPointer = (e: RPointerEvent<HTMLDivElement>) => {
    const ws = e.currentTarget.parentElement?.getBoundingClientRect();
    if (!ws) return;
    send(ratioAt(d.split, d.direction, { x: (e.clientX - ws.left) / cell.w, y: (e.clientY - ws.top) / cell.h }));
  };

  return (
    <div
      className={`divider ${horizontal ? 'divider-h' : 'divider-v'}`}
      style={style}
      role="separator"
      tabIndex={0}
      aria-orientation={horizontal ? 'vertical' : 'horizontal'}
      aria-valuemin={10}
      aria-valuemax={90}
      aria-valuenow={Math.round(d.ratio)}
      aria-label="split divider (arrow keys move it)"
      data-divider={d.path}
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        e.currentTarget.classList.add('dragging');
      }}
      onPointerMove={(e) => {
        if (e.currentTarget.hasPointerCapture(e.pointerId)) fromPointer(e);
      }}
      onPointerUp={(e) => {
        if (!e.currentTarget.hasPointerCapture(e.pointerId)) return;
        fromPointer(e);
        e.currentTarget.releasePointerCapture(e.pointerId);
        e.currentTarget.classList.remove('dragging');
      }}
      onKeyDown={(e) => {
        const step = e.key === (horizontal ? 'ArrowRight' : 'ArrowDown') ? 5 : e.key === (horizontal ? 'ArrowLeft' : 'ArrowUp') ? -5 : 0;
        if (step === 0) return;
        e.preventDefault();
        send(Math.min(90, Math.max(10, d.ratio + step)));
      }}
    />
  );
}
