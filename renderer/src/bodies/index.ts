// The window's body registrations: one line per kind it draws. A new kind is its
// component file beside this one and one line here; a text body is not drawn yet
// and gets the placeholder that names it.
import { createElement, lazy, Suspense } from 'react';
import type { BodyProps } from './registry';
import { BodyRegistry } from './registry';
import { TerminalBody } from './TerminalBody';

// Widgets are drawn by their own chunk, loaded when the first widget pane shows (the first frame does without it).
const LazyWidget = lazy(() => import('./WidgetBody').then((m) => ({ default: m.WidgetBody })));
function WidgetBody(props: BodyProps) {
  return createElement(Suspense, { fallback: null }, createElement(LazyWidget, props));
}

export const bodies = new BodyRegistry({
  terminal: TerminalBody,
  // An agent's body is the terminal its program runs in.
  agent: TerminalBody,
  // A joined host's pane tiled here: the server streams it under the stand-in's number (server/hosts/standIns.ts).
  remote: TerminalBody,
  widgets: WidgetBody,
});
