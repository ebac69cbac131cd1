// What an event interceptor is: the one hook pane/exec consults before performing
// a command word. The namespace keeps them (Namespace.interceptorOf), one per pane.

/** Whoever holds a pane's event file open read-write (acme: the program owning the window). */
export interface Interceptor {
  /** Hands an execution over instead of performing it; the interceptor may write it back to have it done by default. */
  offer(line: string, origin: string, by: string): void;
}
