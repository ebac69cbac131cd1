// Measures one terminal cell in pixels the way xterm itself lays its cells out (a
// hidden probe terminal with the pane's font): the unit in which the window draws
// the server's placements and tells the server its size.
import { Terminal } from '@xterm/xterm';
import type { Look } from '../term/look';

/** Columns of the probe: xterm rounds its canvas to whole pixels, so many columns make the per-cell width exact. */
const PROBE_COLS = 1000;

interface Dimensions {
  css: { cell: { width: number; height: number } };
}

export function measureCell(look: Pick<Look, 'fontFamily' | 'fontSize'>): { w: number; h: number } {
  const font = look.fontFamily;
  const size = look.fontSize;
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-100000px;top:0;width:10px;height:10px;visibility:hidden;overflow:hidden';
  document.body.appendChild(host);
  const t = new Terminal({ fontFamily: font, fontSize: size, cols: PROBE_COLS, rows: 2 });
  try {
    t.open(host);
    // The same private field @xterm/addon-fit reads: xterm has no public API for its cell size.
    const d = (t as unknown as { _core?: { _renderService?: { dimensions?: Dimensions } } })._core?._renderService?.dimensions;
    const w = d?.css.cell.width ?? 0;
    const h = d?.css.cell.height ?? 0;
    if (w > 0 && h > 0) return { w, h };
    return fallback(font, size);
  } finally {
    t.dispose();
    host.remove();
  }
}

/** Text metrics when the probe could not measure (no layout yet): close, and rounded up. */
function fallback(font: string, size: number): { w: number; h: number } {
  const span = document.createElement('span');
  span.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font-family:${font};font-size:${size}px;line-height:normal`;
  span.textContent = 'W'.repeat(64);
  document.body.appendChild(span);
  const r = span.getBoundingClientRect();
  span.remove();
  return { w: r.width / 64 || 8, h: Math.ceil(r.height) || 17 };
}
