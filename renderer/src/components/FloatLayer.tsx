// Floating panes above the tiles, drawn with react-rnd from the session's floating
// rects (in cells of the session viewport). Drags and resizes become float/move and
// float/resize; dragging to an edge or corner offers a half or quarter (previewed).
import { useState } from 'react';
import { Rnd } from 'react-rnd';
import type { Floating } from '../../../kits/protocol/model';
import { stick, toCells, zoneAt, zoneRect, type PxRect, type SnapZone } from '../layout/snap';
import { client } from '../net/client';
import { selectSession, useApp } from '../store';
import { PaneFrame } from './PaneFrame';

interface Px {
  w: number;
  h: number;
}

function pointer(e: MouseEvent | TouchEvent | { clientX?: number; clientY?: number }): { x: number; y: number } | null {
  if ('touches' in e && e.touches && e.touches.length > 0) return { x: e.touches[0]!.clientX, y: e.touches[0]!.clientY };
  if ('clientX' in e && typeof e.clientX === 'number') return { x: e.clientX, y: e.clientY ?? 0 };
  return null;
}

async function place(pane: number, cells: PxRect, from: Floating): Promise<void> {
  if (cells.w !== from.w || cells.h !== from.h) await client.act('float/resize', { pane, w: cells.w, h: cells.h });
  if (cells.x !== from.x || cells.y !== from.y) await client.act('float/move', { pane, x: cells.x, y: cells.y });
}

function FloatingPane({ f, size, cell, vp, z, ws }: { f: Floating; size: Px; cell: Px; vp: { cols: number; rows: number }; z: number; ws: () => DOMRect | undefined }) {
  const [zone, setZone] = useState<SnapZone | null>(null);
  // Optimistic rectangle between a gesture's end and the server's answer, so the
  // window does not jump back for a frame; dropped when the server's rect changes.
  const [held, setHeld] = useState<{ key: string; r: PxRect } | null>(null);
  const key = `${f.x},${f.y},${f.w},${f.h}`;
  const server: PxRect = { x: f.x * cell.w, y: f.y * cell.h, w: f.w * cell.w, h: f.h * cell.h };
  const r = held && held.key === key ? held.r : server;
  const cellsOf = (px: PxRect) => toCells(px, cell.w, cell.h, vp.cols, vp.rows);
  const preview = zone ? zoneRect(zone, size.w, size.h) : null;

  return (
    <>
      {preview ? <div className="snap-preview" style={{ left: preview.x, top: preview.y, width: preview.w, height: preview.h }} /> : null}
      <Rnd
        className="float-window"
        style={{ zIndex: 20 + z }}
        position={{ x: r.x, y: r.y }}
        size={{ width: r.w, height: r.h }}
        bounds="parent"
        minWidth={cell.w * 12}
        minHeight={cell.h * 4}
        dragHandleClassName="tag"
        resizeHandleClasses={{ bottomRight: 'resize-br', right: 'resize-r', bottom: 'resize-b', left: 'resize-l', top: 'resize-t', topLeft: 'resize-tl', topRight: 'resize-tr', bottomLeft: 'resize-bl' }}
        cancel=".tag-word,.tag-user,button"
        onDrag={(e) => {
          const p = pointer(e as MouseEvent);
          const b = ws();
          setZone(p && b ? zoneAt(p.x - b.left, p.y - b.top, size.w, size.h) : null);
        }}
        onDragStop={(_e, d) => {
          const target = zone ? zoneRect(zone, size.w, size.h) : stick({ x: d.x, y: d.y, w: r.w, h: r.h }, size.w, size.h);
          setZone(null);
          setHeld({ key, r: target });
          void place(f.pane, cellsOf(target), f);
        }}
        onResizeStop={(_e, _dir, el, _delta, pos) => {
          const target = stick({ x: pos.x, y: pos.y, w: el.offsetWidth, h: el.offsetHeight }, size.w, size.h);
          setHeld({ key, r: target });
          void place(f.pane, cellsOf(target), f);
        }}
      >
        <PaneFrame pane={f.pane} floating style={{ position: 'absolute', inset: 0 }} />
      </Rnd>
    </>
  );
}

export function FloatLayer({ size, ws }: { size: Px; ws: () => DOMRect | undefined }) {
  const session = useApp(selectSession);
  const zoomed = session?.zoomed ?? null;
  if (!session || size.w === 0 || zoomed !== null && !session.floating.some((f) => f.pane === zoomed)) return null;
  const vp = session.viewport;
  const cell = { w: size.w / vp.cols, h: size.h / vp.rows };
  const floats = session.floating.filter((f) => f.visible && (zoomed === null || f.pane === zoomed)).sort((a, b) => a.z - b.z);
  return (
    <>
      {floats.map((f, i) => (
        <FloatingPane key={f.pane} f={f} size={size} cell={cell} vp={vp} z={i} ws={ws} />
      ))}
    </>
  );
}
