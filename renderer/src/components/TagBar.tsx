// A pane's tag, acme-style: its name, its command words (from the vocabulary the
// server publishes for the pane), then free user text. A toolbar of buttons for
// assistive tech; click or middle-click on a word executes it.
import type { KeyboardEvent } from 'react';
import { exitLabel } from '../../../kits/protocol/exitLabel';
import type { Pane } from '../../../kits/protocol/model';
import { AgentTag } from './AgentTag';
import { execWord, UserText } from './UserText';

const QUADRANT_SHORT: Record<string, string> = {
  'top-left': '◰', 'top-right': '◳', 'bottom-left': '◱', 'bottom-right': '◲',
  left: '◧', right: '◨', top: '⬒', bottom: '⬓', full: '■',
};

/** The words shown in the tag: the server's tag words, else the vocabulary's tag words. */
export function tagWords(p: Pane): string[] {
  if (p.tag.commands.length > 0) return p.tag.commands;
  return p.vocabulary.filter((c) => c.inTag === true).map((c) => c.name);
}

/** The accessible name of a pane: its tag as text. */
export function tagLabel(p: Pane): string {
  return [p.tag.name || `pane ${p.n}`, p.tag.user].filter((s) => s.trim() !== '').join(' — ');
}

/** Arrow keys move between the toolbar's controls (the ARIA toolbar pattern). */
function rovingKeys(e: KeyboardEvent<HTMLDivElement>): void {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const target = e.target as HTMLElement;
  if (target.classList.contains('tag-user')) return;
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>('button, .tag-user')];
  const i = items.indexOf(target);
  const next = items[i + (e.key === 'ArrowRight' ? 1 : -1)];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

export function TagBar({ pane, focused, bell }: { pane: Pane; focused: boolean; bell: boolean }) {
  const words = tagWords(pane);
  const docs = new Map(pane.vocabulary.map((c) => [c.name, c.doc]));
  const quadrant = pane.attrs.quadrant;
  const name = pane.tag.name || `pane ${pane.n}`;
  return (
    <div className="tag" role="toolbar" aria-label={`tag of ${name}`} onKeyDown={rovingKeys}>
      <span className="tag-focus" aria-hidden="true">{focused ? '▶' : '·'}</span>
      <span className="tag-name" title={`${pane.host}:${pane.n} ${pane.signature}`}>{name}</span>
      <AgentTag pane={pane} />
      {pane.attrs.title && pane.attrs.title !== name ? <span className="tag-title" title="terminal title">{pane.attrs.title}</span> : null}
      {quadrant ? (
        <span className="tag-quadrant" role="note" aria-label={`quadrant ${quadrant}`} title={`quadrant: ${quadrant}`}>
          {QUADRANT_SHORT[quadrant] ?? quadrant}
        </span>
      ) : null}
      {bell ? <span className="tag-bell" role="status" aria-label="bell rang">🔔</span> : null}
      {pane.state === 'exited' ? <span className={`tag-exit${pane.exit?.signal != null || (pane.exit?.code ?? 0) !== 0 ? ' failed' : ''}`}>{exitLabel(pane.exit)}</span> : null}
      <span className="tag-words">
        {words.map((w) => (
          <button
            key={w}
            type="button"
            className="tag-word"
            title={docs.get(w) ?? w}
            // Keep the keyboard in the terminal when a word is clicked with the mouse.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => void execWord(pane.n, w, 'tag')}
            onAuxClick={(e) => {
              if (e.button === 1) {
                e.preventDefault();
                void execWord(pane.n, w, 'tag');
              }
            }}
          >
            {w}
          </button>
        ))}
      </span>
      <UserText pane={pane.n} text={pane.tag.user} />
    </div>
  );
}
