// The claim lifecycle: claim → (contest) → release, force release after the
// contest timeout, and lapse when the TTL passes or the holder goes stale. Claims
// are advisory: they inform hooks and people, they never block a write.
import type { Claim, ClaimLogEntry, ClaimScope } from '../../kits/protocol/awareness';
import { covers, overlaps, type Resource } from './resources';

export interface ClaimsState {
  claims: Claim[];
  log: ClaimLogEntry[];
}

export interface ClaimEnv {
  now: number;
  contestTimeoutMs: number;
  maxLog: number;
  /** Is this holder gone (silent past the stale limit, or its pane closed)? */
  isStale(holder: string): boolean;
  newId(): string;
}

export interface ClaimRequest extends Resource {
  holder: string;
  scope: ClaimScope;
  reason: string;
  ttlMs?: number | undefined;
  /** On conflict, contest the conflicting claims instead of only reporting them. */
  contest?: boolean | undefined;
}

export type ClaimOutcome =
  | { status: 'granted'; claim: Claim }
  | { status: 'conflict'; claim: null; conflicts: Claim[]; contested: Claim[] };

/** What changed in one call, for events and persistence. */
export interface ClaimChanges {
  removed: { claim: Claim; action: ClaimLogEntry['action'] }[];
  added: Claim[];
  contested: Claim[];
  /** Contests dropped because the holder answered. */
  kept: Claim[];
}

export const noChanges = (): ClaimChanges => ({ removed: [], added: [], contested: [], kept: [] });

function log(st: ClaimsState, env: ClaimEnv, action: ClaimLogEntry['action'], c: Claim, by: string | null): void {
  st.log.push({ at: env.now, action, kind: c.kind, path: c.path, holder: c.holder, by });
  if (st.log.length > env.maxLog) st.log.splice(0, st.log.length - env.maxLog);
}

/** A conflict needs two holders and at least one exclusive claim. */
function conflicts(c: Claim, r: Resource & { holder: string; scope: ClaimScope }): boolean {
  return c.holder !== r.holder && (c.scope === 'exclusive' || r.scope === 'exclusive') && overlaps(c, r);
}

/**
 * Cleans the table: lapsed TTLs, stale holders, and contests past their timeout
 * (the contester then holds what it asked for, unless it is stale too).
 * Every read goes through here, so no listing ever shows a dead claim.
 */
export function sweep(st: ClaimsState, env: ClaimEnv, ch: ClaimChanges = noChanges()): ClaimChanges {
  const keep: Claim[] = [];
  for (const c of st.claims) {
    let action: ClaimLogEntry['action'] | null = null;
    if (c.expiresAt !== null && c.expiresAt <= env.now) action = 'expired';
    else if (env.isStale(c.holder)) action = 'holder-stale';
    else if (c.contestedAt !== null && env.now - c.contestedAt >= env.contestTimeoutMs) action = 'force-released';
    if (action === null) {
      keep.push(c);
      continue;
    }
    log(st, env, action, c, action === 'force-released' ? c.contestedBy : null);
    ch.removed.push({ claim: c, action });
    if (action === 'force-released' && c.contestedBy !== null && !env.isStale(c.contestedBy)) {
      const want = c.contestFor ?? { kind: c.kind, path: c.path, scope: c.scope };
      const by = c.contestedBy;
      // One request may have contested several claims: it is granted once.
      const has = (x: Claim) => x.holder === by && x.kind === want.kind && x.path === want.path;
      if (!keep.some(has) && !st.claims.some(has)) {
        const taken: Claim = { id: env.newId(), ...want, holder: by, reason: `taken over from ${c.holder} after a contest`, claimedAt: env.now, expiresAt: null, contestedBy: null, contestedAt: null, contestFor: null };
        keep.push(taken);
        log(st, env, 'transferred', taken, c.holder);
        ch.added.push(taken);
      }
    }
  }
  st.claims = keep;
  return ch;
}

/**
 * The holder answered its contester (a message to it): the contests it started
 * on the holder's claims are dropped; the two now talk instead of waiting it out.
 */
export function answer(st: ClaimsState, env: ClaimEnv, holder: string, contester: string, ch: ClaimChanges = noChanges()): Claim[] {
  const out = st.claims.filter((c) => c.holder === holder && c.contestedBy === contester);
  for (const c of out) {
    c.contestedBy = null;
    c.contestedAt = null;
    c.contestFor = null;
    log(st, env, 'kept', c, holder);
    ch.kept.push(c);
  }
  return out;
}

/** When the table next changes by itself: the earliest TTL or contest deadline (null: none). */
export function nextDeadline(st: ClaimsState, contestTimeoutMs: number): number | null {
  let at: number | null = null;
  for (const c of st.claims) {
    for (const t of [c.expiresAt, c.contestedAt === null ? null : c.contestedAt + contestTimeoutMs]) if (t !== null && (at === null || t < at)) at = t;
  }
  return at;
}

export function claim(st: ClaimsState, env: ClaimEnv, r: ClaimRequest, ch: ClaimChanges = noChanges()): ClaimOutcome {
  sweep(st, env, ch);
  const against = st.claims.filter((c) => conflicts(c, r));
  if (against.length > 0) {
    const contested: Claim[] = [];
    if (r.contest) {
      for (const c of against) {
        // The first contester keeps its place; a second one only learns who holds it.
        if (c.contestedBy !== null) continue;
        c.contestedBy = r.holder;
        c.contestedAt = env.now;
        c.contestFor = { kind: r.kind, path: r.path, scope: r.scope };
        log(st, env, 'contested', c, r.holder);
        contested.push(c);
      }
      ch.contested.push(...contested);
    }
    return { status: 'conflict', claim: null, conflicts: against, contested };
  }
  const expiresAt = r.ttlMs === undefined ? null : env.now + r.ttlMs;
  const mine = st.claims.find((c) => c.holder === r.holder && c.kind === r.kind && c.path === r.path);
  if (mine) {
    // Claiming again refreshes: new reason, scope and TTL, same claim.
    Object.assign(mine, { scope: r.scope, reason: r.reason, expiresAt });
    return { status: 'granted', claim: mine };
  }
  const c: Claim = { id: env.newId(), kind: r.kind, path: r.path, holder: r.holder, scope: r.scope, reason: r.reason, claimedAt: env.now, expiresAt, contestedBy: null, contestedAt: null, contestFor: null };
  st.claims.push(c);
  log(st, env, 'claimed', c, null);
  ch.added.push(c);
  return { status: 'granted', claim: c };
}

/**
 * Releases `by`'s claims on exactly this resource (any kind when kind is omitted).
 * With `force`, anyone's: for a person clearing up after an agent that died.
 */
export function release(st: ClaimsState, env: ClaimEnv, by: string, r: { path: string; kind?: Resource['kind'] | undefined }, force = false, ch: ClaimChanges = noChanges()): Claim[] {
  sweep(st, env, ch);
  const hit = (c: Claim) => c.path === r.path && (r.kind === undefined || c.kind === r.kind) && (force || c.holder === by);
  const out = st.claims.filter(hit);
  st.claims = st.claims.filter((c) => !hit(c));
  for (const c of out) {
    log(st, env, c.holder === by ? 'released' : 'force-released', c, c.holder === by ? null : by);
    ch.removed.push({ claim: c, action: c.holder === by ? 'released' : 'force-released' });
  }
  return out;
}

/** Releases everything a holder has (its session ended). */
export function releaseAll(st: ClaimsState, env: ClaimEnv, holder: string, ch: ClaimChanges = noChanges()): Claim[] {
  const out = st.claims.filter((c) => c.holder === holder);
  st.claims = st.claims.filter((c) => c.holder !== holder);
  for (const c of out) {
    log(st, env, 'released', c, null);
    ch.removed.push({ claim: c, action: 'released' });
  }
  return out;
}

/** Live claims by others that cover a file `asker` is about to write. */
export function claimsOn(st: ClaimsState, file: string, asker: string): Claim[] {
  return st.claims.filter((c) => c.holder !== asker && covers(c, file));
}
