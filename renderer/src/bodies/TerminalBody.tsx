// Where a pane's terminal element lives while its pane is on screen. The terminal
// itself (term/termView.ts) outlives this component, so zoom, float and re-tiling
// move the element instead of rebuilding the terminal.
import { menuHasKeyboard } from '../components/OverflowMenu';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useApp } from '../store';
import { termFor } from '../term/terminals';

export function TerminalBody({ pane, focused }: { pane: number; focused: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  // An open palette/launcher/switcher/find bar keeps the keyboard; the terminal gets it back after.
  const overlayOpen = useApp((s) => s.overlay !== null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const view = termFor(pane);
    view.mount(el);
    return () => view.unmount(el);
  }, [pane]);

  useEffect(() => {
    if (focused && !overlayOpen && !menuHasKeyboard()) termFor(pane).focus();
  }, [focused, overlayOpen, pane]);

  return <div className="pane-body" ref={ref} />;
}
