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
