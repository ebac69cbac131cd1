// The cycle switcher (Alt+Tab-like): panes most recently focused first. Pressing the
// chord again moves on; letting go of its modifiers (or Enter) focuses the choice.
import { shown } from '../../../kits/protocol/shown';
import { useApp } from '../store';
import { STATE_WORDS } from '../../../kits/protocol/agentState';
import { tagWords } from './TagBar';

export function Switcher() {
  const ov = useApp((s) => (s.overlay?.kind === 'switcher' ? s.overlay : null));
  const panes = useApp((s) => s.panes);
  if (!ov) return null;
  return (
    <div className="overlay-backdrop">
      <div className="switcher" role="dialog" aria-modal="true" aria-label="switch pane">
        <ul role="listbox" aria-label="panes">
          {ov.order.map((n, i) => {
            const p = panes[n];
            if (!p) return null;
            return (
              <li key={n} role="option" aria-selected={i === ov.index} className={i === ov.index ? 'selected' : ''}>
                <span className="sw-id">{n}</span>
                <span className="sw-name">{shown(p.tag.name || `pane ${n}`)}</span>
                <span className="sw-q">{p.attrs.quadrant ?? ''}</span>
                {p.attrs.agent && p.attrs['agent.state'] ? (
                  <span className={`sw-state agent-state agent-state-${p.attrs['agent.state']}`} data-state={p.attrs['agent.state']}>
                    {STATE_WORDS[p.attrs['agent.state'] as keyof typeof STATE_WORDS] ?? p.attrs['agent.state']}
                  </span>
                ) : null}
                <span className="sw-words">{tagWords(p).slice(0, 4).join(' ')}</span>
              </li>
            );
          })}
        </ul>
        <p className="sw-hint">release the modifiers or press Enter to switch · Esc cancels</p>
      </div>
    </div>
  );
}
