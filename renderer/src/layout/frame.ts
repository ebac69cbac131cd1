// What a pane's frame costs around its terminal, in pixels: the numbers the CSS
// draws with (set here as custom properties, so the two cannot drift) and, over the
// measured cell, in cells — what the window reports so the server sizes bodies exactly.
import { chromeCells } from '../../../kits/layout/geometry';
import type { Chrome } from '../../../kits/protocol/model';

/** The frame's border on each side (px). */
export const BORDER = 1;
/** The tag bar's height (px): one line of 12px UI text with room for its buttons. */
export const TAG_H = 22;
/** Space between the tag and the terminal's first row (px). */
export const PAD_TOP = 2;
/** Space between the left border and the terminal's first column (px). */
export const PAD_LEFT = 4;
/** Sub-pixel slack: the browser lays out in fractions of a pixel and xterm rounds its canvas. */
const SLACK = 1;

/** Pixels the frame takes across and down outside its terminal. */
export const CHROME_PX = { across: 2 * BORDER + PAD_LEFT + SLACK, down: 2 * BORDER + TAG_H + PAD_TOP + SLACK } as const;

/** The frame's cost in cells of this size. */
export function chromeFor(cell: { w: number; h: number }): Chrome {
  return chromeCells(CHROME_PX, cell);
}

/** Hands the numbers to the stylesheet (styles.css reads these custom properties). */
export function applyFrameCss(root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--frame-border', `${BORDER}px`);
  root.style.setProperty('--tag-h', `${TAG_H}px`);
  root.style.setProperty('--body-pad-top', `${PAD_TOP}px`);
  root.style.setProperty('--body-pad-left', `${PAD_LEFT}px`);
}
