// Floating panes above the tiles, drawn with react-rnd where the server placed
// them (cells times the measured cell size). Drags (by the whole tag) and resizes
// become float/move and float/resize; dragging to an edge or corner offers a half
// or quarter (previewed). The server's answer is the placement the window draws.
import { useState } from 'react';
import { Rnd } from 'react-rnd';
import { FLOAT_MIN } from '../../../kits/layout/floats';
import type { Placement } from '../../../kits/protocol/model';
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

async function place(pane: number, cells: PxRect, from: Placement): Promise<void> {
  if (cells.w !== from.w || cells.h !== from.h) await client.act('float/resize', { pane, w: cells.w, h: cells.h });
  if (cells.x !== from.x || cells.y !== from.y) await client.act('float/move', { pane, x: cells.x, y: cells.y });
}

function FloatingPane({ f, size, cell, vp, z, ws }: { f: Placement; size: Px; cell: Px; vp: { cols: number; rows: number }; z: number; ws: () => DOMRect | undefined }) {
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
        minWidth={cell.w * FLOAT_MIN.w}
        minHeight={cell.h * FLOAT_MIN.h}
        // The whole tag drags, its text included (a click that does not move still edits it).
        dragHandleClassName="tag"
        resizeHandleClasses={{ bottomRight: 'resize-br', right: 'resize-r', bottom: 'resize-b', left: 'resize-l', top: 'resize-t', topLeft: 'resize-tl', topRight: 'resize-tr', bottomLeft: 'resize-bl' }}
        cancel=".tag-word,button"
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
  const cell = useApp((s) => s.cell);
  if (!session || size.w === 0) return null;
  const zs = new Map(session.floating.map((f) => [f.pane, f.z]));
  const floats = session.placements.filter((p) => p.floating && p.shown).sort((a, b) => (zs.get(a.pane) ?? 0) - (zs.get(b.pane) ?? 0));
  return (
    <>
      {floats.map((f, i) => (
        <FloatingPane key={f.pane} f={f} size={size} cell={cell} vp={session.viewport} z={i} ws={ws} />
      ))}
    </>
  );
}
