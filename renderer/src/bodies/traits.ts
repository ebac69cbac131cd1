// What the window needs to know of a body kind besides its component, kept apart from
// the components (term/ asks it, and the terminal component imports term/). With
// registry.tsx and index.ts, the only place the window chooses by a pane's kind.
import type { BodyKind } from '../../../kits/protocol/model';

/** Kinds whose pane stands in for a joined host's pane: streamed through the hosts service, its link's state shown (decision 037). */
const STAND_IN: ReadonlySet<string> = new Set<BodyKind>(['remote']);

/** Whether a pane of `kind` stands in for a joined host's pane. */
export function standsIn(kind: string | undefined): boolean {
  return kind !== undefined && STAND_IN.has(kind);
}
