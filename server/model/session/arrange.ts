// A session's tiles rearranged in a preset (tmux's select-layout): the panes stay,
// the split tree is made anew (kits/layout/presets.ts). Floats are not touched, a
// zoom ends (the arrangement is what the person asked to see), and focus stays.
import { faults } from '../../../kits/protocol/error';
import type { LayoutNode, Placement, Session } from '../../../kits/protocol/model';
import { leaves } from '../../../kits/layout/tree';
import { placements } from '../../../kits/layout/geometry';
import { LAYOUT_PRESETS, presetLayout, presetOf, spread, type LayoutPreset } from '../../../kits/layout/presets';
import { changes, mark, type SessionEvent } from './changes';
import { MIN_SPLIT_BODY } from './tiles';

/** What an arrangement asks for: a preset, `spread` (the shape kept, the panes given even shares) or `next` (the preset after the current one). */
export type LayoutAsk = LayoutPreset | 'spread' | 'next';

/** The first tile `tree` would leave smaller than MIN_SPLIT_BODY, if any: a preset is refused rather than make a pane no one can type in. */
function cramped(s: Session, tree: LayoutNode): Placement | undefined {
  return placements({ ...s, zoomed: null, layout: tree }).find((p) => !p.floating && (p.cols < MIN_SPLIT_BODY.cols || p.rows < MIN_SPLIT_BODY.rows));
}

/**
 * Lays the session's tiles out as `ask` says, returning the events and what was laid out.
 * The main-* presets make the focused tile the main one (else the first). `next` goes
 * through LAYOUT_PRESETS from the one the tiles are in now (the first when they are in
 * none), passing over any that would leave a tile smaller than MIN_SPLIT_BODY; a preset
 * asked by name that would is refused, naming the tile and its size.
 */
export function arrange(s: Session, ask: LayoutAsk): { events: SessionEvent[]; layout: LayoutPreset | 'spread' } {
  const panes = leaves(s.layout);
  if (s.layout === null || panes.length === 0) throw faults.failed(`session ${s.name} has no tiles to arrange`);
  const main = s.focused !== null && panes.includes(s.focused) ? s.focused : panes[0]!;
  const now = presetOf(s.layout);
  const from = now === null ? 0 : LAYOUT_PRESETS.indexOf(now) + 1;
  const tries: (LayoutPreset | 'spread')[] = ask === 'next' ? LAYOUT_PRESETS.map((_, i) => LAYOUT_PRESETS[(from + i) % LAYOUT_PRESETS.length]!) : [ask];
  for (const t of tries) {
    const tree = t === 'spread' ? spread(s.layout) : presetLayout(t, panes, main);
    const tight = cramped(s, tree);
    if (tight) {
      if (ask === 'next') continue;
      throw faults.failed(`${t} would leave pane ${tight.pane} ${tight.cols}×${tight.rows} cells in this ${s.viewport.cols}×${s.viewport.rows} view, and a tile takes at least ${MIN_SPLIT_BODY.cols}×${MIN_SPLIT_BODY.rows} (MIN_SPLIT_BODY); try tiled, or close or hide a pane`);
    }
    const m = mark(s);
    s.layout = tree;
    s.zoomed = null;
    return { events: changes(s, m), layout: t };
  }
  throw faults.failed(`no layout fits session ${s.name}'s ${panes.length} tiles in its ${s.viewport.cols}×${s.viewport.rows} view (each tile takes at least ${MIN_SPLIT_BODY.cols}×${MIN_SPLIT_BODY.rows}, MIN_SPLIT_BODY); close or hide a pane`);
}
