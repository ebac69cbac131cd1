// The session switcher (its key, or "Sessions" in the palette): every session on the
// server, this window's marked. Type to filter; Enter switches to the chosen one, or
// creates one named by what was typed ("new session" row); F2 renames the chosen
// session (its name selected, so typing replaces it; the one row says what Enter
// will do); Delete twice closes it with its panes; Escape leaves. Sessions are the
// server's; this window only chooses which one it shows (kept in the URL).
import { shown } from '../../../kits/protocol/shown';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Session } from '../../../kits/protocol/model';
import { client } from '../net/client';
import { store, useApp } from '../store';
import { takeCaughtKeys } from './caughtKeys';

type Row = { kind: 'session'; s: Session; panes: number } | { kind: 'new'; name: string } | { kind: 'rename'; s: Session; name: string; taken: boolean };

/** Shows session `id` once this window has heard of it (its event may trail the reply). */
export function showWhenKnown(id: string): void {
  if (store.getState().sessions[id]) return store.getState().showSession(id);
  const off = store.subscribe((st) => {
    if (!st.sessions[id]) return;
    off();
    st.showSession(id);
  });
  setTimeout(off, 5000);
}

export function Sessions() {
  const sessions = useApp((s) => s.sessions);
  const current = useApp((s) => s.sessionId);
  const panes = useApp((s) => s.panes);
  const [q, setQ] = useState('');
  const [sel, setSel] = useState(0);
  const [renaming, setRenaming] = useState<Session | null>(null);
  const [closing, setClosing] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Focused in the commit that shows it, before the next key is handled: a passive
  // effect could run after the dialog was painted, and keys typed in between went to
  // the terminal behind it (a CI run named a session "rk" for "work").
  // F2 selects the name it puts there: typing replaces it, as a rename does in a file manager.
  useLayoutEffect(() => {
    input.current?.focus();
    if (renaming) input.current?.select();
  }, [renaming]);
  // Keys typed while this chunk loaded (Deferred.tsx's KeyCatcher) become the query, as in the pickers.
  useLayoutEffect(() => {
    const early = takeCaughtKeys();
    if (early.text) setQ(early.text);
  }, []);

  const rows = useMemo<Row[]>(() => {
    // Renaming, the list is the rename alone: filtered by the new name, it had offered
    // "new session “NAME”", a row Enter did not run and a click ran instead.
    if (renaming) {
      const name = q.trim();
      return [{ kind: 'rename', s: renaming, name, taken: Object.values(sessions).some((x) => x.name === name && x.id !== renaming.id) }];
    }
    const counts = new Map<string, number>();
    for (const p of Object.values(panes)) counts.set(p.session, (counts.get(p.session) ?? 0) + 1);
    const low = q.trim().toLowerCase();
    const list: Row[] = Object.values(sessions)
      .sort((a, b) => a.createdAt - b.createdAt)
      .filter((s) => low === '' || s.name.toLowerCase().includes(low))
      .map((s) => ({ kind: 'session', s, panes: counts.get(s.id) ?? 0 }));
    const exact = Object.values(sessions).some((s) => s.name === q.trim());
    return exact ? list : [...list, { kind: 'new', name: q.trim() }];
  }, [sessions, panes, q, renaming]);
  const at = Math.min(sel, rows.length - 1);
  const close = () => store.getState().setOverlay(null);

  const pick = async (r: Row | undefined) => {
    if (!r) return;
    if (r.kind === 'rename') return void (r.name !== '' && !r.taken && r.name !== r.s.name ? rename(r.s, r.name) : undefined);
    if (r.kind === 'session') {
      close();
      return store.getState().showSession(r.s.id);
    }
    const ack = await client.act('session/new', r.name ? { name: r.name } : {});
    if (!ack) return;
    close();
    showWhenKnown(ack.session);
  };
  const rename = async (s: Session, name: string) => {
    const ack = await client.act('session/rename', { session: s.id, name });
    if (ack) {
      setRenaming(null);
      setQ('');
    }
  };
  const kill = async (s: Session) => {
    if (closing !== s.id) return setClosing(s.id);
    setClosing(null);
    await client.act('session/kill', { session: s.id });
  };
  const selected = rows[at];

  return (
    <div className="overlay-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="picker sessions" role="dialog" aria-modal="true" aria-label="sessions">
        <input
          ref={input}
          className="picker-input"
          aria-label={renaming ? `new name for session ${renaming.name}` : 'filter sessions, or name a new one'}
          placeholder={renaming ? `rename ${renaming.name} to…` : 'sessions — type to filter or to name a new one · F2 rename · Del close'}
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setSel(0);
            setClosing(null);
          }}
          onKeyDown={(e) => {
            if (renaming) {
              if (e.key === 'Enter') void pick(rows[0]);
              else if (e.key === 'Escape') (setRenaming(null), setQ(''));
              else return;
              return e.preventDefault();
            }
            if (e.key === 'ArrowDown') setSel((at + 1) % rows.length);
            else if (e.key === 'ArrowUp') setSel((at - 1 + rows.length) % rows.length);
            else if (e.key === 'Enter') void pick(selected);
            else if (e.key === 'Escape') close();
            else if (e.key === 'F2' && selected?.kind === 'session') (setRenaming(selected.s), setQ(selected.s.name));
            else if (e.key === 'Delete' && selected?.kind === 'session') void kill(selected.s);
            else return;
            e.preventDefault();
          }}
        />
        <ul className="picker-list" role="listbox" aria-label="sessions">
          {rows.map((r, i) => (
            <li
              key={r.kind === 'new' ? 'new' : r.s.id}
              role="option"
              aria-selected={i === at}
              className={i === at ? 'selected' : ''}
              onMouseMove={() => i !== at && setSel(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                void pick(r);
              }}
            >
              {r.kind === 'rename' ? (
                <>
                  <span className="ss-cur">✎</span>
                  <span className="ss-name">{r.name === '' || r.name === r.s.name ? `rename “${shown(r.s.name)}”` : `rename “${shown(r.s.name)}” to “${shown(r.name)}”`}</span>
                  <span className="pk-doc">
                    {r.name === '' ? 'type its new name' : r.taken ? `a session is named “${shown(r.name)}”: choose another name` : r.name === r.s.name ? 'type its new name · Enter renames · Esc keeps it' : 'Enter renames · Esc keeps it'}
                  </span>
                </>
              ) : r.kind === 'session' ? (
                <>
                  <span className="ss-cur">{r.s.id === current ? '●' : ''}</span>
                  <span className="ss-name">{shown(r.s.name)}</span>
                  <span className="pk-doc">
                    {r.panes} pane{r.panes === 1 ? '' : 's'}
                    {closing === r.s.id ? ' — press Delete again to close it and its panes' : ''}
                  </span>
                </>
              ) : (
                <>
                  <span className="ss-cur">+</span>
                  <span className="ss-name">{r.name ? `new session “${r.name}”` : 'new session'}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
