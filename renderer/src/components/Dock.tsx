// The dock (Alt+Shift+M, prefix d, "Dock" in the palette): every pane of the session —
// tiles, floats, hidden ones and agents with their state — in one list. Type to filter;
// Enter shows a hidden pane where it was and focuses it, or focuses a visible one.
import { useMemo } from 'react';
import { shown } from '../../../kits/protocol/shown';
import type { Pane } from '../../../kits/protocol/model';
import { client } from '../net/client';
import { selectSession, useApp } from '../store';
import { Highlight, Picker } from './Picker';

type Row = { pane: Pane; where: 'hidden' | 'float' | 'tile'; agent: string | undefined };

/** A pane's place in the session: hidden (a float not shown, or a tile minimised), floating, or tiled. */
function whereOf(floating: readonly { pane: number; visible: boolean }[], n: number): Row['where'] {
  const f = floating.find((x) => x.pane === n);
  return f === undefined ? 'tile' : f.visible ? 'float' : 'hidden';
}

export function Dock() {
  const session = useApp(selectSession);
  const panes = useApp((s) => s.panes);
  const rows = useMemo<Row[]>(() => {
    if (!session) return [];
    const order = { hidden: 0, float: 1, tile: 2 };
    return Object.values(panes)
      .filter((p) => p.session === session.id)
      .map((p) => ({ pane: p, where: whereOf(session.floating, p.n), agent: p.attrs['agent.state'] }))
      .sort((a, b) => order[a.where] - order[b.where] || a.pane.n - b.pane.n);
  }, [session, panes]);
  return (
    <Picker<Row>
      id="dock"
      title="dock"
      placeholder="show or focus a pane"
      items={rows}
      fields={(r) => [shown(r.pane.tag.name), r.where, r.agent ?? '', r.pane.cwd]}
      keyOf={(r) => String(r.pane.n)}
      empty={rows.length === 0 ? 'no panes in this session' : 'no pane matches'}
      onPick={(r) => void (r.where === 'hidden' ? client.act('pane/hide', { pane: r.pane.n, hidden: false }) : client.act(r.where === 'float' ? 'float/focus' : 'pane/focus', { pane: r.pane.n }))}
      render={(r, hit) => (
        <>
          <span className={`pk-kind${r.where === 'hidden' ? ' pk-missing' : ''}`}>{r.where}</span>
          <span className="pk-label">
            <Highlight text={shown(r.pane.tag.name)} hit={hit} />
          </span>
          <span className="pk-doc">{`pane ${r.pane.n}${r.agent ? ` · agent ${r.agent}` : ''} · ${shown(r.pane.cwd)}`}</span>
        </>
      )}
    />
  );
}
