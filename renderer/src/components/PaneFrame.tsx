// One pane on screen: a region named by its tag, the tag bar, the body its kind
// draws (chosen in ../bodies/), and (when open for it) the find bar. The same
// frame serves tiles and floats.
import { useEffect, type CSSProperties } from 'react';
import { bodies } from '../bodies';
import { client } from '../net/client';
import { selectSession, store, useApp } from '../store';
import { CopyMode, FindBar } from './Deferred';
import { TagBar, tagLabel } from './TagBar';
import { syncTargets } from '../term/syncInput';

export function PaneFrame({ pane, style, floating = false }: { pane: number; style?: CSSProperties; floating?: boolean }) {
  const p = useApp((s) => s.panes[pane]);
  const focused = useApp((s) => selectSession(s)?.focused === pane);
  const bell = useApp((s) => s.bells[pane] === true);
  const finding = useApp((s) => s.overlay?.kind === 'find' && s.overlay.pane === pane);
  const copying = useApp((s) => s.overlay?.kind === 'copy' && s.overlay.pane === pane);
  const zoomed = useApp((s) => selectSession(s)?.zoomed === pane);
  // Its typing is copied to the others (input.sync), or it takes the copies: marked, so no one types into a pane unawares.
  const synced = useApp((s) => {
    const sid = s.sessionId;
    if (sid === null || !s.synced[sid]) return false;
    const focusedPane = s.sessions[sid]?.focused ?? -1;
    return pane === focusedPane ? syncTargets(s, pane, sid).length > 0 : syncTargets(s, focusedPane, sid).includes(pane);
  });

  useEffect(() => {
    if (focused && bell) store.getState().clearBell(pane);
  }, [focused, bell, pane]);

  if (!p) return null;
  const Body = bodies.componentFor(p.kind);
  const cls = ['pane', focused ? 'focused' : '', floating ? 'floating' : '', bell ? 'ringing' : '', copying ? 'copying' : '', synced ? 'synced' : ''].filter(Boolean).join(' ');
  return (
    <section
      className={cls}
      style={style}
      role="region"
      aria-label={tagLabel(p)}
      aria-current={focused ? 'true' : undefined}
      data-pane={pane}
      onPointerDown={() => {
        if (!focused) void client.act(floating ? 'float/focus' : 'pane/focus', { pane });
      }}
    >
      <TagBar pane={p} focused={focused} bell={bell} zoomed={zoomed} />
      <Body pane={pane} kind={p.kind} focused={focused} />
      {finding ? <FindBar pane={pane} /> : null}
      {copying ? <CopyMode pane={pane} /> : null}
    </section>
  );
}
