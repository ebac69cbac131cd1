// Typed errors. Operation errors mirror the runtime contract (session-not-found,
// pane-not-found, denied, failed); protocol errors name what was wrong with a frame.
import { z } from 'zod';
import { PaneFault } from './fault';
import { lazySchema } from './lazySchema';

export const ErrorCodeSchema = lazySchema(() => z.enum([
  // operation errors (the pane-runtime contract)
  'session-not-found',
  'pane-not-found',
  'denied',
  'failed',
  // namespace errors (kits/protocol/namespace.ts): each maps to one errno through FUSE
  'not-found',
  'is-directory',
  'not-directory',
  'not-permitted',
  'busy',
  // protocol errors
  'bad-request',
  'unknown-method',
  'not-ready',
  'too-large',
  'version-mismatch',
  'unauthorized',
]));
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Every error carries a one-line `message` a person can act on. */
export const PaneErrorSchema = lazySchema(() => z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  /** For denied / failed: the reason alone, without decoration. */
  reason: z.string().optional(),
  /** The object the error is about: a pane address, a session, a field path. */
  subject: z.string().optional(),
}));
export type PaneError = z.infer<typeof PaneErrorSchema>;

export { isStoppedFault, PaneFault, stoppedFault } from './fault';

export const faults = {
  paneNotFound: (ref: string | number) => new PaneFault('pane-not-found', `pane ${ref} not found`, { subject: String(ref) }),
  sessionNotFound: (ref: string) => new PaneFault('session-not-found', `session ${ref} not found`, { subject: ref }),
  denied: (reason: string) => new PaneFault('denied', `denied: ${reason}`, { reason }),
  failed: (reason: string) => new PaneFault('failed', reason, { reason }),
  badRequest: (message: string, subject?: string) =>
    new PaneFault('bad-request', message, subject === undefined ? {} : { subject }),
};
