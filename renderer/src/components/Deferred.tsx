// What the first frame does not need, each in its own chunk (a dynamic import, same
// origin, so the page's CSP `script-src 'self'` admits it): the overlays, copy mode,
// find, and floating panes (react-rnd). preloadDeferred() fetches them all once the
// window is up; a component whose chunk is in renders at once, in the same commit as
// the key that opened it, so the keys typed right after reach its input.
import { lazy, Suspense, useState, type ComponentType, type JSX } from 'react';
import { store } from '../store';
import { catchKeys } from './caughtKeys';

/* eslint-disable @typescript-eslint/no-explicit-any */
const preloads: (() => Promise<unknown>)[] = [];

/**
 * Holds the keyboard while a keyboard-driven part's chunk loads (opened before the
 * preload finished): keys typed meanwhile land here, never in the shell behind it, and
 * a picker that mounts in its place takes them over (caughtKeys.ts). Escape gives up.
 */
function KeyCatcher() {
  return <input ref={catchKeys} className="deferred-keys" aria-label="loading" autoFocus style={{ position: 'fixed', opacity: 0, width: 0, height: 0, pointerEvents: 'none' }} />;
}

/**
 * A component loaded on first need. Before its chunk is in it suspends (React.lazy, under
 * its own Suspense; `catchKeys` shows a KeyCatcher meanwhile); after, it is the component
 * itself. Each mount keeps the kind it started with, so a mount made while loading is not
 * remounted (and its state lost) when the chunk lands.
 */
function deferred<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>, catchKeys = true): (props: P) => JSX.Element {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const get = () =>
    (pending ??= load().then(
      (m) => (loaded = pick(m)),
      (e: unknown) => {
        pending = null; // a failed fetch is tried again on next use
        throw e;
      },
    ));
  preloads.push(get);
  const Lazy = lazy(() => get().then((c) => ({ default: c }))) as unknown as ComponentType<P>;
  const Waiting = (props: P) => (
    <Suspense fallback={catchKeys ? <KeyCatcher /> : null}>
      <Lazy {...(props as any)} />
    </Suspense>
  );
  return function Deferred(props: P) {
    const [C] = useState<ComponentType<P>>(() => loaded ?? Waiting);
    return <C {...(props as any)} />;
  };
}

export const Palette = deferred(() => import('./Palette'), (m) => m.Palette);
export const Launcher = deferred(() => import('./Launcher'), (m) => m.Launcher);
export const Switcher = deferred(() => import('./Switcher'), (m) => m.Switcher);
export const NoticeHistory = deferred(() => import('./NoticeHistory'), (m) => m.NoticeHistory);
export const Sessions = deferred(() => import('./Sessions'), (m) => m.Sessions);
export const Dock = deferred(() => import('./Dock'), (m) => m.Dock);
export const ConfirmClose = deferred(() => import('./ConfirmClose'), (m) => m.ConfirmClose);
export const CopyMode = deferred(() => import('./CopyMode'), (m) => m.CopyMode);
export const FindBar = deferred(() => import('./FindBar'), (m) => m.FindBar);
export const FloatLayer = deferred(() => import('./FloatLayer'), (m) => m.FloatLayer, false);

/** Fetches every deferred chunk now (in the background); one that fails is fetched again on first use. */
export function preloadDeferred(): void {
  for (const get of preloads) void get().catch(() => undefined);
}
