// The one error class of the protocol, without zod: the server throws it and the
// kit's Connection (every client's, the CLI's too) rejects with it, so one
// `instanceof PaneFault` catches a server's typed error anywhere.
import type { ErrorCode, PaneError } from './error';

/** Thrown inside a process; crosses a boundary as a PaneError. */
export class PaneFault extends Error {
  readonly code: ErrorCode;
  readonly reason: string | undefined;
  readonly subject: string | undefined;
  constructor(code: ErrorCode, message: string, opts: { reason?: string; subject?: string } = {}) {
    super(message);
    this.name = 'PaneFault';
    this.code = code;
    this.reason = opts.reason;
    this.subject = opts.subject;
  }
  toError(): PaneError {
    const e: PaneError = { code: this.code, message: this.message };
    if (this.reason !== undefined) e.reason = this.reason;
    if (this.subject !== undefined) e.subject = this.subject;
    return e;
  }
}

/**
 * What a server sends every connection as it stops because a client asked it to
 * (server/stop, `pane stop`), just before it closes them: a stop a person or agent
 * asked for is for good, so a window or bridge says so at once instead of waiting to
 * see the server come back (a crash, or systemd's stop before a start, sends none).
 * `by` is the asker's principal label (the person, agent ada), left out for a listener
 * who is told nothing of who else uses the server.
 */
export function stoppedFault(by?: string): PaneFault {
  return new PaneFault('failed', `the pane server was stopped${by === undefined ? '' : ` by ${by}`} (pane stop); its panes have ended`, { reason: 'stopped', subject: 'server/stop' });
}

/** Whether an error a server sent about no request is its word that it was stopped for good (stoppedFault). */
export function isStoppedFault(e: unknown): boolean {
  return e instanceof PaneFault && e.subject === 'server/stop' && e.reason === 'stopped';
}
