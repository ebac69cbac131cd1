// Measures one terminal cell in pixels the way xterm itself lays its cells out: the
// unit in which the window draws the server's placements and tells the server its size.
import { Terminal } from '@xterm/xterm';
import type { Look } from '../term/look';

/** Columns of the layout sum: xterm rounds its canvas to whole pixels, so many columns make the per-cell width exact. */
const PROBE_COLS = 1000;
const PROBE_ROWS = 2;

type Font = Pick<Look, 'fontFamily' | 'fontSize'>;

interface Dimensions {
  css: { cell: { width: number; height: number } };
}

export function measureCell(look: Font): { w: number; h: number } {
  return fromMetrics(look) ?? probe(look);
}

let metrics: OffscreenCanvasRenderingContext2D | null | undefined;

/**
 * xterm's own measurement without a terminal: the same canvas text metrics its
 * CharSizeService reads (TextMetricsMeasureStrategy, which xterm 6 uses wherever
 * OffscreenCanvas is), through its DOM renderer's arithmetic (DomRenderer
 * _updateDimensions: letter spacing 0, line height 1) over PROBE_COLS × PROBE_ROWS.
 * A probe terminal cost ~90 ms of the first frame (opening it lays the page out);
 * this costs well under one. Null where xterm would measure through the DOM instead.
 */
function fromMetrics({ fontFamily, fontSize }: Font): { w: number; h: number } | null {
  if (metrics === undefined) metrics = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(100, 100).getContext('2d');
  if (!metrics) return null;
  metrics.font = `${fontSize}px ${fontFamily}`;
  const m = metrics.measureText('W');
  const charH = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
  if (!(m.width > 0 && charH > 0)) return null;
  const dpr = window.devicePixelRatio;
  const cellW = m.width * dpr; // device pixels: char width + round(letterSpacing 0)
  const cellH = Math.ceil(charH * dpr); // ceil(char height), × line height 1
  return { w: Math.round((cellW * PROBE_COLS) / dpr) / PROBE_COLS, h: Math.round((cellH * PROBE_ROWS) / dpr) / PROBE_ROWS };
}

/** A hidden probe terminal with the pane's font: where canvas text metrics are missing. */
function probe({ fontFamily: font, fontSize: size }: Font): { w: number; h: number } {
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-100000px;top:0;width:10px;height:10px;visibility:hidden;overflow:hidden';
  document.body.appendChild(host);
  const t = new Terminal({ fontFamily: font, fontSize: size, cols: PROBE_COLS, rows: PROBE_ROWS });
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
