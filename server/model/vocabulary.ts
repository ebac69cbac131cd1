// The command vocabulary of each kind of pane (the common words here, each body
// kind's own in its provider, ./bodies/): the words shown in the tag,
// listed by the palette and /pane/<n>/commands, and accepted by ctl and pane/exec.
// Each word maps onto one protocol request, so every view executes it the same way.
import type { BodyKind, PaneCommand } from '../../kits/protocol/model';
import { bodyOf } from './bodies/registry';

const dir: PaneCommand['args'][number] = { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down'] };

const common: PaneCommand[] = [
  { name: 'close', doc: 'Close the pane and end its process', args: [], inTag: true },
  { name: 'zoom', doc: 'Toggle zoom: the pane fills the session view', args: [], inTag: true },
  { name: 'split', doc: 'Split the pane (h: side by side, v: stacked) at a ratio', inTag: true, args: [
    { name: 'direction', type: 'enum', values: ['h', 'v'], optional: true },
    { name: 'ratio', type: 'int', optional: true, doc: 'percent kept by this pane, 10..90' },
  ] },
  { name: 'focus', doc: 'Focus this pane, or move focus in a direction', args: [
    { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down', 'next', 'prev'], optional: true },
  ] },
  { name: 'resize', doc: 'Move the pane’s edge by N cells', args: [dir, { name: 'cells', type: 'int', optional: true }] },
  { name: 'swap', doc: 'Swap with the neighbour in a direction (default next)', args: [
    { name: 'direction', type: 'enum', values: ['left', 'right', 'up', 'down', 'next', 'prev'], optional: true },
  ] },
  { name: 'name', doc: 'Set the tag name', args: [{ name: 'name', type: 'text' }] },
  { name: 'float', doc: 'Move the pane to the floating layer', args: [], inTag: true },
  { name: 'tile', doc: 'Put a floating pane back into the tiled layout', args: [] },
  { name: 'raise', doc: 'Raise a floating pane above the others', args: [] },
  { name: 'lower', doc: 'Lower a floating pane below the others', args: [] },
  { name: 'move', doc: 'Move a floating pane to cell x y', args: [{ name: 'x', type: 'int' }, { name: 'y', type: 'int' }] },
  { name: 'size', doc: 'Resize a floating pane to w×h cells', args: [{ name: 'w', type: 'int' }, { name: 'h', type: 'int' }] },
];

/** The vocabulary a new pane of `kind` starts with (apps may add words later); its body provider adds its words. */
export function vocabularyFor(kind: BodyKind): PaneCommand[] {
  return bodyOf(kind).vocabulary(common);
}

/** The words shown in a tag, in order. */
export function tagWords(vocab: PaneCommand[]): string[] {
  return vocab.filter((c) => c.inTag).map((c) => c.name);
}
