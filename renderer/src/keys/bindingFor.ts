// The chord bound to an action, for display in the palette, hints and status line.
import type { Action, KeymapState } from '../../../kits/protocol/keymap';

export function bindingFor(k: KeymapState, action: Action): string | undefined {
  const direct = k.bindings.find((b) => b.action === action)?.chord;
  if (direct) return direct;
  const viaPrefix = k.prefix ? k.prefixBindings.find((b) => b.action === action)?.chord : undefined;
  return viaPrefix && k.prefix ? `${k.prefix} ${viaPrefix}` : undefined;
}
