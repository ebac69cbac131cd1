// Which pane has an event interceptor: the one hook pane/exec consults before
// performing a command word. A leaf module (no imports of handlers), so the
// pane handlers can ask it without a cycle; the namespace fills it in.
import type { PaneServer } from '../paneServer';

/** Whoever holds a pane's event file open read-write (acme: the program owning the window). */
export interface Interceptor {
  /** Hands an execution over instead of performing it; the interceptor may write it back to have it done by default. */
  offer(line: string, origin: string, by: string): void;
}

const registry = new WeakMap<PaneServer, Map<number, Interceptor>>();

export function setInterceptor(server: PaneServer, pane: number, i: Interceptor | null): void {
  let m = registry.get(server);
  if (!m) registry.set(server, (m = new Map()));
  if (i === null) m.delete(pane);
  else m.set(pane, i);
}

export function interceptorOf(server: PaneServer, pane: number): Interceptor | undefined {
  return registry.get(server)?.get(pane);
}
