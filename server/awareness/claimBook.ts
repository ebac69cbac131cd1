// The engine's claims: the claim table with its lifecycle (claims.ts), paths
// resolved as the holder sees them, and every change reported once, so the
// engine only wires it to time, staleness, events and persistence.
import type { Claim, ClaimLogEntry, ClaimScope, ResourceKind } from '../../kits/protocol/awareness';
import { faults } from '../../kits/protocol/error';
import * as ops from './claims';
import { noChanges, type ClaimChanges, type ClaimEnv, type ClaimOutcome, type ClaimsState } from './claims';
import { guessKind, normalizeResource } from './resources';

export interface ClaimInput {
  holder: string;
  path: string;
  kind?: ResourceKind | undefined;
  scope?: ClaimScope | undefined;
  reason?: string | undefined;
  ttlMs?: number | undefined;
  contest?: boolean | undefined;
  /** Relative paths resolve against this (default: the holder's cwd, else /). */
  cwd?: string | undefined;
}

export interface ClaimHost {
  now(): number;
  contestTimeoutMs: number;
  maxLog: number;
  isStale(holder: string): boolean;
  newId(): string;
  cwdOf(holder: string): string | null | undefined;
  /** Something changed (claims added, removed or contested). */
  changed(ch: ClaimChanges): void;
}

/** Far beyond any real desk; a bound so no client can make every claim check crawl. */
export const MAX_CLAIMS = 10_000;


export class ClaimBook {
  constructor(
    public st: ClaimsState,
    private readonly h: ClaimHost,
  ) {}

  private env(): ClaimEnv {
    return { now: this.h.now(), contestTimeoutMs: this.h.contestTimeoutMs, maxLog: this.h.maxLog, isStale: (x) => this.h.isStale(x), newId: () => this.h.newId() };
  }

  private report(ch: ClaimChanges): void {
    if (ch.added.length + ch.removed.length + ch.contested.length + ch.kept.length > 0) this.h.changed(ch);
  }

  sweep(): void {
    this.report(ops.sweep(this.st, this.env()));
  }

  /** A path as the holder sees it. */
  resolve(holder: string, p: string, kind?: ResourceKind, cwd?: string): { kind: ResourceKind; path: string } {
    return normalizeResource(kind ?? guessKind(p), p, cwd ?? this.h.cwdOf(holder) ?? '/');
  }

  claim(c: ClaimInput): ClaimOutcome {
    const r = this.resolve(c.holder, c.path, c.kind, c.cwd);
    if (this.st.claims.length >= MAX_CLAIMS) this.sweep();
    if (this.st.claims.length >= MAX_CLAIMS) throw faults.failed(`there are already ${MAX_CLAIMS} claims; release some (pane claims lists them)`);
    const ch = noChanges();
    const out = ops.claim(this.st, this.env(), { ...r, holder: c.holder, scope: c.scope ?? 'exclusive', reason: c.reason ?? '', ttlMs: c.ttlMs, contest: c.contest }, ch);
    // A refreshed claim changes nothing in the lists but still needs saving.
    if (out.status === 'granted' && ch.added.length === 0) ch.added.push(out.claim);
    this.report(ch);
    return out;
  }

  release(by: string, p: string, o: { kind?: ResourceKind; cwd?: string; force?: boolean } = {}): Claim[] {
    const r = this.resolve(by, p, o.kind, o.cwd);
    const ch = noChanges();
    const out = ops.release(this.st, this.env(), by, { path: r.path, kind: o.kind }, o.force ?? false, ch);
    this.report(ch);
    return out;
  }

  releaseAll(holder: string): void {
    const ch = noChanges();
    ops.releaseAll(this.st, this.env(), holder, ch);
    this.report(ch);
  }

  /** `holder` answered `contester`: its contests on the holder's claims end, the claims stay. */
  answer(holder: string, contester: string): void {
    const ch = noChanges();
    ops.answer(this.st, this.env(), holder, contester, ch);
    this.report(ch);
  }

  /** When the table next changes by itself (a TTL or contest deadline), for a timer. */
  nextDeadline(): number | null {
    return ops.nextDeadline(this.st, this.h.contestTimeoutMs);
  }

  /** Live claims, cleaned first as every listing is. */
  list(): Claim[] {
    this.sweep();
    return this.st.claims;
  }

  /** Claims by others covering a file `asker` is about to write. */
  on(file: string, asker: string): Claim[] {
    this.sweep();
    return ops.claimsOn(this.st, file, asker);
  }

  log(): readonly ClaimLogEntry[] {
    return this.st.log;
  }

  /** Did either of these claim anything since `since` (coordination)? */
  claimedSince(names: readonly string[], since: number): boolean {
    return this.st.log.some((e) => e.at >= since && e.action === 'claimed' && names.includes(e.holder));
  }
}
