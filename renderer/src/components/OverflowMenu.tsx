// The tag's overflow menu: the command words a narrow tag has no room for, behind a
// "…" button. A menu button in the ARIA sense: Enter, Space or Down opens it with the
// first word focused; Up/Down move, Enter runs, Escape closes back to the button.
// Drawn in a portal, so neither the tag's clipping nor a float's transform cuts it.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';

/**
 * Whether an open menu holds the keyboard. A pane that becomes focused takes the keyboard
 * for its body, but not from a menu opened in it: a click on a row's or a tag's "…" in a
 * pane not yet focused focuses that pane, and its body took the keyboard from the menu
 * just opened, which closed it on the blur (the second menu of a board never opened).
 */
export function menuHasKeyboard(): boolean {
  return document.activeElement instanceof Element && document.activeElement.closest('[role="menu"]') !== null;
}

/** Pixels kept between the menu and the window's edge. */
const MENU_MARGIN = 4;

export function OverflowMenu({ words, docs, onRun, paneName, label }: { words: string[]; docs: Map<string, string>; onRun: (w: string) => void; paneName: string; label?: string }) {
  const [open, setOpen] = useState(false);
  const btn = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: 0, top: 0 });

  const show = () => {
    const r = btn.current?.getBoundingClientRect();
    if (r) setPos({ left: r.left, top: r.bottom + 2 });
    setOpen(true);
  };
  // Kept inside the window once its real size is known: a tag at the right edge opens it leftwards,
  // one near the bottom opens it upwards (its width depends on the words' docs, so it is measured, not assumed).
  useLayoutEffect(() => {
    const m = menu.current?.getBoundingClientRect();
    const b = btn.current?.getBoundingClientRect();
    if (!open || !m || !b) return;
    const left = Math.max(0, Math.min(b.left, window.innerWidth - m.width - MENU_MARGIN));
    const below = b.bottom + 2;
    const top = below + m.height <= window.innerHeight - MENU_MARGIN ? below : Math.max(0, b.top - 2 - m.height);
    if (left !== pos.left || top !== pos.top) setPos({ left, top });
  }, [open, pos, words]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) btn.current?.focus();
  };
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const menuKeys = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    else if (e.key === 'Home') items[0]?.focus();
    else if (e.key === 'End') items[items.length - 1]?.focus();
    else if (e.key === 'Escape' || e.key === 'Tab') close(true);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <>
      <button
        ref={btn}
        type="button"
        className="tag-more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label ?? `more commands (${words.length})`}
        title={words.join(' ')}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => (open ? close(false) : show())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            show();
          }
        }}
      >
        …
      </button>
      {open
        ? createPortal(
            <div
              ref={menu}
              className="tag-menu"
              role="menu"
              aria-label={label ?? `more commands for ${paneName}`}
              style={{ left: pos.left, top: pos.top }}
              onKeyDown={menuKeys}
              onBlur={(e) => {
                if (!menu.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget !== btn.current) setOpen(false);
              }}
            >
              {words.map((w) => (
                <button
                  key={w}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="tag-menu-item"
                  title={docs.get(w) ?? w}
                  onClick={() => {
                    close(false);
                    onRun(w);
                  }}
                >
                  <span className="tm-word">{w}</span>
                  <span className="tm-doc">{docs.get(w) ?? ''}</span>
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
