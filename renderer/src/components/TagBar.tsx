// A pane's tag, acme-style: its name, its command words (from the vocabulary the
// server publishes for the pane), then free user text. A toolbar of buttons for
// assistive tech; click or middle-click on a word executes it. When the tag is too
// narrow, badges and topics shrink first, then the words that no longer fit fold
// into an overflow menu (…) the keyboard reaches like any other toolbar control.
import { standsIn } from '../bodies/traits';
import { clip, shown } from '../../../kits/protocol/shown';
import { exitLabel } from '../../../kits/protocol/exitLabel';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Pane } from '../../../kits/protocol/model';
import { LINK_CUT_OFF } from '../../../kits/protocol/standIn';
import { toolbarItems } from '../keys/tagFocus';
import { termFor } from '../term/terminals';
import { AgentTag } from './AgentTag';
import { useApp } from '../store';
import { OverflowMenu } from './OverflowMenu';
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

/** Arrow keys move between the toolbar's controls (the ARIA toolbar pattern); Escape goes back to the terminal. */
function toolbarKeys(e: KeyboardEvent<HTMLDivElement>, pane: number): void {
  const target = e.target as HTMLElement;
  if (target.closest('[role="menu"]')) return; // the overflow menu has its own keys
  if (e.key === 'Escape' && !target.classList.contains('tag-user')) {
    e.preventDefault();
    return termFor(pane).focus();
  }
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  if (target.classList.contains('tag-user')) return;
  const items = toolbarItems(e.currentTarget);
  const next = items[items.indexOf(target) + (e.key === 'ArrowRight' ? 1 : -1)];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

/** Owner names are cut to this many characters in the tag (an agent's name is short; the tooltip has it whole). */
const OWNER_CHARS = 24;

/**
 * Whose pane this is when it is not this window's own: "mallory's" on a float or a
 * split an agent made, so the person never takes an agent's pane for one of theirs
 * (an agent's pane named after the agent says so already). A guest's window, where
 * every pane is the person's, shows none. Escaped, as all text from an agent is.
 */
function OwnerBadge({ pane, name }: { pane: Pane; name: string }) {
  const me = useApp((s) => s.me);
  const guest = useApp((s) => s.viewer !== null);
  if (me === null || guest || pane.owner === me || standsIn(pane.kind)) return null;
  const owner = shown(pane.owner);
  if (owner === name) return null;
  return (
    <span className="tag-owner" role="note" aria-label={`${owner}'s pane, not yours`} title={`made by ${owner}, not by you`}>
      {clip(owner, OWNER_CHARS)}'s
    </span>
  );
}

/**
 * A stand-in for a joined host's pane (kind remote): the tag names HOST:N before the
 * remote's own tag, and badges the host's link while it is not connected (stale: not
 * answering its heartbeat; disconnected: input waits for it) or the remote pane gone.
 */
/** What a stand-in's link badge says on hover: a cut link is not dialled again, so nothing resumes by itself. */
function linkTitle(host: string, link: string): string {
  if (link === LINK_CUT_OFF) return `the link to ${host} was cut off and is not dialled again (pane host ls says why); pane host connect ${host} joins it again`;
  return `the link to ${host} is ${link} (pane host ls); output resumes and typed keys are delivered when it is back`;
}

function RemoteBadges({ pane }: { pane: Pane }) {
  if (!standsIn(pane.kind)) return null;
  const at = `${pane.attrs['remote.host'] ?? '?'}:${pane.attrs['remote.n'] ?? '?'}`;
  const link = pane.attrs['remote.link'] ?? 'disconnected';
  const gone = pane.attrs['remote.gone'];
  return (
    <>
      <span className="tag-host" title={`pane ${at} of host ${pane.attrs['remote.host'] ?? '?'}, shown here as pane ${pane.n}`}>{at}</span>
      {link !== 'connected' ? (
        <span className={`tag-link tag-link-${link.replace(/[^a-z]/g, '-')}`} role="status" aria-label={`host link ${link}`} title={linkTitle(pane.attrs['remote.host'] ?? 'its host', link)}>
          {link === 'stale' ? 'STALE' : link.toUpperCase()}
        </span>
      ) : null}
      {gone ? <span className="tag-link tag-link-gone" role="status" aria-label="remote pane gone" title={gone}>GONE</span> : null}
    </>
  );
}

/** How many words fit: the first word whose right edge passes the words box starts the fold. */
function fittingWords(box: HTMLElement): number {
  const right = box.getBoundingClientRect().right + 0.5;
  const words = [...box.querySelectorAll<HTMLElement>('.tag-word')];
  const i = words.findIndex((w) => w.getBoundingClientRect().right > right);
  return i < 0 ? words.length : i;
}

export function TagBar({ pane, focused, bell, zoomed = false }: { pane: Pane; focused: boolean; bell: boolean; zoomed?: boolean }) {
  // A read-only guest runs no word: its tag shows the name and state, not buttons that would be refused.
  const readOnly = useApp((s) => s.viewer?.mode === 'ro');
  const words = readOnly ? [] : tagWords(pane);
  const docs = new Map(pane.vocabulary.map((c) => [c.name, c.doc]));
  const quadrant = pane.attrs.quadrant;
  // A name or title may be a host's or a program's words: control characters shown escaped.
  const name = shown(pane.tag.name || `pane ${pane.n}`);
  const tagRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLSpanElement>(null);
  const [fit, setFit] = useState(words.length);
  const wordsKey = words.join(' ');

  useLayoutEffect(() => {
    const tag = tagRef.current;
    const box = boxRef.current;
    if (!tag || !box) return;
    const measure = () => {
      // Measured with every word in flow; then the box ends after the last word that
      // fits, so the … sits right after it and the tag text gets the rest.
      box.style.maxWidth = '';
      const n = fittingWords(box);
      const words = box.querySelectorAll<HTMLElement>('.tag-word');
      const last = n > 0 && n < words.length ? words[n - 1]! : null;
      if (last) box.style.maxWidth = `${Math.ceil(last.getBoundingClientRect().right - box.getBoundingClientRect().left)}px`;
      else if (n === 0 && words.length > 0) box.style.maxWidth = '0px';
      setFit(n);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(tag);
    ro.observe(box);
    return () => ro.disconnect();
  }, [wordsKey]);

  const folded = words.slice(fit);
  // A word of the vocabulary as drawn: if the pane no longer has it when the click lands
  // (a host withdrew it), the server refuses it; it is never run as a shell line.
  const run = (w: string) => void execWord(pane.n, w, 'tag-word');
  return (
    <div className="tag" role="toolbar" aria-label={`tag of ${name}`} onKeyDown={(e) => toolbarKeys(e, pane.n)} ref={tagRef}>
      <span className="tag-focus" aria-hidden="true">{focused ? '▶' : '·'}</span>
      <RemoteBadges pane={pane} />
      <span className="tag-name" title={`${pane.host}:${pane.n} ${pane.signature}`}>{name}</span>
      <OwnerBadge pane={pane} name={name} />
      {zoomed ? <span className="tag-zoom" role="note" aria-label="zoomed: the other panes are hidden" title="zoomed (the zoom key restores the layout)">ZOOM</span> : null}
      <AgentTag pane={pane} />
      {pane.attrs.title && shown(pane.attrs.title) !== name ? <span className="tag-title" title="terminal title">{shown(pane.attrs.title)}</span> : null}
      {quadrant ? (
        <span className="tag-quadrant" role="note" aria-label={`quadrant ${quadrant}`} title={`quadrant: ${quadrant}`}>
          {QUADRANT_SHORT[quadrant] ?? quadrant}
        </span>
      ) : null}
      {bell ? <span className="tag-bell" role="status" aria-label="bell rang">🔔</span> : null}
      {pane.state === 'exited' ? <span className={`tag-exit${pane.exit?.signal != null || (pane.exit?.code ?? 0) !== 0 ? ' failed' : ''}`}>{exitLabel(pane.exit)}</span> : null}
      <span className="tag-words" ref={boxRef}>
        {words.map((w, i) => (
          <button
            key={w}
            type="button"
            className="tag-word"
            title={docs.get(w) ?? w}
            // A folded word is in the … menu: hidden here, and out of the toolbar's keyboard order.
            {...(i >= fit ? { 'data-folded': '', 'aria-hidden': true, tabIndex: -1 } : {})}
            // Keep the keyboard in the terminal when a word is clicked with the mouse.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run(w)}
            onAuxClick={(e) => {
              if (e.button === 1) {
                e.preventDefault();
                run(w);
              }
            }}
          >
            {w}
          </button>
        ))}
      </span>
      {folded.length > 0 ? <OverflowMenu
          words={folded}
          docs={docs}
          paneName={name}
          onRun={(w) => {
            run(w);
            termFor(pane.n).focus();
          }}
        /> : null}
      <UserText pane={pane.n} text={pane.tag.user} />
    </div>
  );
}
