// Preset arrangements of a session's tiles, as tmux's select-layout has them: the
// same panes, a new split tree. Pure and zod-free (shared by the server and any
// client that wants to preview one). Each tree is built balanced, halves of halves,
// so every split's ratio stays within 33..67 % however many panes there are (a chain
// of n equal panes would need 100/n %, below MIN_RATIO from 11 panes on), and the
// panes keep their reading order, the main one first where a preset has one.
import type { LayoutNode, SplitDirection } from '../protocol/model';
import { clampRatio, leaves } from './tree';

/** The presets, in the order `next` cycles through them (tmux's next-layout order). */
export const LAYOUT_PRESETS = ['even-horizontal', 'even-vertical', 'main-horizontal', 'main-vertical', 'tiled'] as const;
export type LayoutPreset = (typeof LAYOUT_PRESETS)[number];

/** The main pane's share of the view in main-horizontal and main-vertical: the larger part, the others sharing the rest. */
export const MAIN_PANE_PERCENT = 60;

const leaf = (pane: number): LayoutNode => ({ type: 'leaf', pane });

/** `nodes` side by side (horizontal) or stacked (vertical), each given the same share. */
function even(nodes: readonly LayoutNode[], direction: SplitDirection): LayoutNode {
  if (nodes.length === 1) return nodes[0]!;
  const half = Math.floor(nodes.length / 2);
  return { type: 'split', direction, ratio: clampRatio((half / nodes.length) * 100), a: even(nodes.slice(0, half), direction), b: even(nodes.slice(half), direction) };
}

/** A grid: as many columns as the square root rounds up to, rows of them stacked; the last row's panes share its width. */
function tiled(panes: readonly number[]): LayoutNode {
  const cols = Math.ceil(Math.sqrt(panes.length));
  const rows: LayoutNode[] = [];
  for (let i = 0; i < panes.length; i += cols) rows.push(even(panes.slice(i, i + cols).map(leaf), 'horizontal'));
  return even(rows, 'vertical');
}

/**
 * The tree of `preset` over `panes` (reading order; at least one). `main` is the pane
 * the main-* presets give MAIN_PANE_PERCENT (left, or on top); the rest follow in order.
 */
export function presetLayout(preset: LayoutPreset, panes: readonly number[], main: number = panes[0]!): LayoutNode {
  if (panes.length === 0) throw new Error('a layout needs at least one pane');
  if (panes.length === 1) return leaf(panes[0]!);
  switch (preset) {
    case 'even-horizontal':
      return even(panes.map(leaf), 'horizontal');
    case 'even-vertical':
      return even(panes.map(leaf), 'vertical');
    case 'main-horizontal':
    case 'main-vertical': {
      const rest = panes.filter((p) => p !== main).map(leaf);
      const across: SplitDirection = preset === 'main-vertical' ? 'horizontal' : 'vertical';
      const others = even(rest, across === 'horizontal' ? 'vertical' : 'horizontal');
      return { type: 'split', direction: across, ratio: MAIN_PANE_PERCENT, a: leaf(main), b: others };
    }
    case 'tiled':
      return tiled(panes);
  }
}

/** How many panes a tree lays side by side (horizontal) or one above another (vertical), at most, along any line. */
function span(n: LayoutNode, direction: SplitDirection): number {
  if (n.type === 'leaf') return 1;
  const a = span(n.a, direction);
  const b = span(n.b, direction);
  return n.direction === direction ? a + b : Math.max(a, b);
}

/**
 * The same tree with every split's ratio set so the panes along it get even shares
 * (tmux's select-layout -E): a split with two panes side by side on its left and one on
 * its right gives the left two thirds. The shape and the panes' places do not change.
 */
export function spread(node: LayoutNode): LayoutNode {
  if (node.type === 'leaf') return node;
  const a = span(node.a, node.direction);
  const b = span(node.b, node.direction);
  return { ...node, ratio: clampRatio((a / (a + b)) * 100), a: spread(node.a), b: spread(node.b) };
}

/** Whether two trees are the same arrangement: the same splits, ratios and panes in the same places. */
export function sameLayout(x: LayoutNode, y: LayoutNode): boolean {
  if (x.type === 'leaf' || y.type === 'leaf') return x.type === 'leaf' && y.type === 'leaf' && x.pane === y.pane;
  return x.direction === y.direction && x.ratio === y.ratio && sameLayout(x.a, y.a) && sameLayout(x.b, y.b);
}

/** The preset `node` is laid out as already (the main-* presets with its first pane as the main one), or null. */
export function presetOf(node: LayoutNode | null): LayoutPreset | null {
  if (!node) return null;
  const panes = leaves(node);
  return LAYOUT_PRESETS.find((p) => sameLayout(presetLayout(p, panes), node)) ?? null;
}
