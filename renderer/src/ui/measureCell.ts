// Measures one terminal cell in pixels with the terminal's font, the unit in which
// the window tells the server its size and floating rectangles are placed.
import type { Look } from '../term/look';

export function measureCell(look: Pick<Look, 'fontFamily' | 'fontSize'>): { w: number; h: number } {
  const span = document.createElement('span');
  span.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font-family:${look.fontFamily};font-size:${look.fontSize}px;line-height:normal`;
  span.textContent = 'W'.repeat(64);
  document.body.appendChild(span);
  const r = span.getBoundingClientRect();
  span.remove();
  return { w: r.width / 64 || 8, h: Math.ceil(r.height) || 17 };
}
