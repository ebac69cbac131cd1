// The grants the person issued (kits/protocol/grant.ts): a token per grant, said
// once and kept only as its SHA-256, with a mode and an expiry. The book checks a
// hello's token, counts its uses, lists and revokes, and forgets what expired.
// Kept in the state dir (grants.json, 0600, read as every state file is: no link,
// regular, bounded) so a grant outlives a daemon restart as the person expects of
// a link they sent; a server without a state dir keeps them in memory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { GrantsFileSchema, MAX_GRANTS, type GrantInfo, type GrantMode, type GrantRecord } from '../../kits/protocol/grant';
import { readBelow, writeBelow } from '../../kits/node/safeFile';

export const GRANTS_FILE = 'grants.json';
/** The grants file at most: MAX_GRANTS records of ~300 bytes, with room. */
export const MAX_GRANTS_FILE_BYTES = 256 << 10;
/** Bytes of randomness in a token: 192 bits, as the launch secret. */
const TOKEN_BYTES = 24;
const WHERE = 'pane’s state folder';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export type GrantCheck = { ok: true; grant: GrantRecord } | { ok: false; reason: string };

export class GrantBook {
  private grants: GrantRecord[] = [];

  constructor(
    /** The state dir; undefined keeps the book in memory. */
    private readonly dir: string | undefined,
    private readonly warn: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.load();
  }

  private load(): void {
    if (!this.dir) return;
    let text: string | null;
    try {
      text = readBelow(this.dir, GRANTS_FILE, { maxBytes: MAX_GRANTS_FILE_BYTES, where: WHERE });
    } catch (e) {
      // Unreadable: no grant lets anyone in (the safe side), and the person is told why.
      this.warn(`grants: ${(e as Error).message}; no grant is honoured until pane grant new writes a new file`);
      return;
    }
    if (text === null) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      this.warn(`grants: ${this.dir}/${GRANTS_FILE} is not JSON (${(e as Error).message}); no grant is honoured until pane grant new writes a new file`);
      return;
    }
    const parsed = GrantsFileSchema.safeParse(raw);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      this.warn(`grants: ${this.dir}/${GRANTS_FILE}: ${i.path.join('.') || '(file)'}: ${i.message}; no grant is honoured until pane grant new writes a new file`);
      return;
    }
    this.grants = parsed.data.grants;
    this.prune();
  }

  /** Writes the book; `durable` (fsync) for what must survive a power cut — an issue or a revoke, not a use counted. */
  private save(durable = true): void {
    if (!this.dir) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeBelow(this.dir, GRANTS_FILE, `${JSON.stringify({ version: 1, grants: this.grants }, null, 2)}\n`, { mode: 0o600, mkdir: true, durable, where: WHERE });
    } catch (e) {
      this.warn(`grants: cannot write ${this.dir}/${GRANTS_FILE}: ${(e as Error).message} (the grants hold until the daemon stops)`);
    }
  }

  /** Forgets what expired; true when something went. */
  private prune(): boolean {
    const t = this.now();
    const before = this.grants.length;
    this.grants = this.grants.filter((g) => g.expiresAt > t);
    return this.grants.length !== before;
  }

  /** Issues a grant; its token is returned here and nowhere else. */
  create(mode: GrantMode, ttlMs: number, note: string | undefined, session?: string, by?: string, context?: string): { record: GrantRecord; token: string } {
    if (this.prune()) this.save();
    if (this.grants.length >= MAX_GRANTS) throw new Error(`${MAX_GRANTS} grants are alive, the most pane keeps; revoke some (pane grant ls, pane grant revoke ID)`);
    const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
    let id: string;
    do id = `g${crypto.randomBytes(4).toString('hex')}`;
    while (this.grants.some((g) => g.id === id));
    const t = this.now();
    const record: GrantRecord = { id, mode, ...(note ? { note } : {}), ...(session !== undefined ? { session } : {}), ...(by !== undefined ? { by } : {}), ...(context !== undefined ? { context } : {}), createdAt: t, expiresAt: t + ttlMs, uses: 0, hash: sha256(token) };
    this.grants.push(record);
    this.save();
    return { record, token };
  }

  /** Whether `token` lets a client in now, and as which grant; a use is counted. */
  check(token: string): GrantCheck {
    const hash = Buffer.from(sha256(token), 'hex');
    const t = this.now();
    // Every record compared in constant time, none skipped: how long this takes says nothing of which matched.
    let found: GrantRecord | undefined;
    for (const g of this.grants) if (crypto.timingSafeEqual(Buffer.from(g.hash, 'hex'), hash)) found = g;
    if (!found) return { ok: false, reason: 'no such grant: it was revoked, it expired, or the token is mistyped (ask for a new one: pane grant new)' };
    if (found.expiresAt <= t) return { ok: false, reason: `grant ${found.id} expired at ${new Date(found.expiresAt).toISOString()} (ask for a new one: pane grant new)` };
    // An attach grant from before grants named their session would show every session: none is honoured.
    if (found.mode !== 'metrics' && found.session === undefined) return { ok: false, reason: `grant ${found.id} names no session (an older pane issued it); ask for a new one: pane grant new --session NAME` };
    found.uses++;
    found.lastUsedAt = t;
    // Every hello with the grant passes here: its count needs no fsync.
    this.save(false);
    return { ok: true, grant: found };
  }

  /** Whether grant `id` still stands (a connected client's grant is looked at again before each request that matters). */
  alive(id: string): boolean {
    const g = this.grants.find((x) => x.id === id);
    return g !== undefined && g.expiresAt > this.now();
  }

  /** Who issued grant `id` (its principal key; undefined: the person), or null when there is no such grant alive. */
  issuer(id: string): { by: string | undefined } | null {
    const g = this.grants.find((x) => x.id === id);
    return g !== undefined && g.expiresAt > this.now() ? { by: g.by } : null;
  }

  list(clientsOf: (id: string) => number, sessionName: (id: string) => string | undefined = () => undefined): GrantInfo[] {
    if (this.prune()) this.save();
    return this.grants.map(({ hash: _hash, ...g }) => {
      const name = g.session === undefined ? undefined : sessionName(g.session);
      return { ...g, clients: clientsOf(g.id), ...(name !== undefined ? { sessionName: name } : {}) };
    });
  }

  /** The grants that show session `id` (to revoke when it ends). */
  ofSession(id: string): string[] {
    return this.grants.filter((g) => g.session === id).map((g) => g.id);
  }

  /** Revokes `id`; false when there is no such grant. */
  revoke(id: string): boolean {
    const before = this.grants.length;
    this.grants = this.grants.filter((g) => g.id !== id);
    if (this.grants.length === before) return false;
    this.save();
    return true;
  }
}
