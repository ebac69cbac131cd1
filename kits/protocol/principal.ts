// Who an action speaks for. Every door decides it once, from its own facts (which
// socket, the peer's credentials, a token it issued, a certificate), and every
// effect of the request — a line run, a word, a file opened, a program started —
// is done with that principal's authority, never the person's by default.
// Capsicum's rule: authority travels with the handle, not with an ambient identity.
// Zod-free: the CLI's start-up path reads it.

export type Principal =
  /** The person whose daemon this is: their own socket, their window, their paired machines. */
  | { kind: 'person'; via?: string }
  /** An agent account: its own socket, its token, its hooks. Bounded by its .access. */
  | { kind: 'agent'; name: string }
  /** A joined host: what its link brings here (its panes, words, events) acts as it. */
  | { kind: 'host'; name: string }
  /** Someone the person let in with an attach grant (grant/create): its mode bounds it, its expiry ends it. */
  | { kind: 'grant'; id: string; mode: 'ro' | 'rw'; /** The one session it shows (its id): its guest sees nothing beyond that session's panes. */ session: string; /** The context its guests follow there (session/context); absent: grant:ID, their own. */ context?: string };

export const PERSON: Principal = Object.freeze({ kind: 'person' });

/** How a refusal or a log line names a principal: "the person", "agent ada", "host box". */
export function principalLabel(p: Principal): string {
  switch (p.kind) {
    case 'person':
      return 'the person';
    case 'agent':
      return `agent ${p.name}`;
    case 'host':
      return `host ${p.name}`;
    case 'grant':
      return `grant ${p.id} (${p.mode === 'ro' ? 'read-only' : 'read-write'})`;
  }
}

/** A stable key for per-principal state (one +Errors pane each): `person`, `agent:ada`, `host:box`, `grant:g1a2b3c4d`. */
export function principalKey(p: Principal): string {
  return p.kind === 'person' ? 'person' : p.kind === 'grant' ? `grant:${p.id}` : `${p.kind}:${p.name}`;
}
