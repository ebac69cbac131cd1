// Addresses. A pane is `n` on its own server and `HOST:n` anywhere; both forms
// are accepted wherever a pane id is, so remote servers can join later.
import { z } from 'zod';
import { lazySchema } from './lazySchema';

/** A host name as it appears in `HOST:n` (no colon, no whitespace). */
export const HostNameSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a host name is letters, digits, ".", "_" or "-"'));

/** A pane address: a number, "n" or "HOST:n". */
export const PaneRefSchema = lazySchema(() => z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[1-9][0-9]*$/, 'a pane id is N or HOST:N, e.g. 3 or devbox:3'),
]));
export type PaneRef = z.infer<typeof PaneRefSchema>;

/** A session is named by its uuid or by its name. */
export const SessionRefSchema = lazySchema(() => z.string().min(1).max(200));
export type SessionRef = z.infer<typeof SessionRefSchema>;

export interface ParsedPaneRef {
  host: string | undefined;
  n: number;
}

/** Splits a pane address into host (if given) and number; throws on junk. */
export function parsePaneRef(ref: PaneRef): ParsedPaneRef {
  if (typeof ref === 'number') return { host: undefined, n: ref };
  const i = ref.lastIndexOf(':');
  if (i < 0) return { host: undefined, n: Number(ref) };
  return { host: ref.slice(0, i), n: Number(ref.slice(i + 1)) };
}

/** The canonical address of pane `n` on `host`. */
export function formatPaneRef(host: string, n: number): string {
  return `${host}:${n}`;
}
