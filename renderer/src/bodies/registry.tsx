// The one place the window chooses by a pane's body kind: a map from kind to the
// component that draws it, with a placeholder naming the kind for a kind no
// component draws (a newer server's kind, or one this window leaves undrawn).
import type { ComponentType } from 'react';
import type { BodyKind } from '../../../kits/protocol/model';

/** What every body component is given. */
export interface BodyProps {
  /** The pane's number; the component reads what else it needs from the store. */
  pane: number;
  kind: string;
  focused: boolean;
}

export type BodyComponent = ComponentType<BodyProps>;

/** The body drawn for a kind no component was registered for: it says so, naming the kind. */
export function UndrawnBody({ kind }: BodyProps) {
  return (
    <div className="pane-body pane-body-undrawn" role="note">
      This window has no component for a “{kind}” body.
    </div>
  );
}

/** Kind → component. The kinds are the protocol's (BodyKindSchema); tests may register others. */
export class BodyRegistry {
  private readonly byKind = new Map<string, BodyComponent>();

  constructor(initial: Partial<Record<BodyKind, BodyComponent>> = {}) {
    for (const [kind, c] of Object.entries(initial)) if (c) this.byKind.set(kind, c);
  }

  /** Registers the component for a kind (a second registration for the same kind replaces the first). */
  register(kind: string, component: BodyComponent): void {
    this.byKind.set(kind, component);
  }

  /** The component for `kind`, or the placeholder that names it. */
  componentFor(kind: string): BodyComponent {
    return this.byKind.get(kind) ?? UndrawnBody;
  }

  /** The kinds with a component, in registration order. */
  kinds(): string[] {
    return [...this.byKind.keys()];
  }
}
