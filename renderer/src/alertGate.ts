// Debounce for attention alerts, so a flapping agent does not spam: an alert fires
// only once its condition has held for `settleMs`, and one key fires at most once per
// `cooldownMs` — a later offer is deferred to the cooldown's end, not lost, so the
// state the agent settles in is always told. Withdrawing (condition gone) cancels.

export interface GateClock {
  now(): number;
  set(f: () => void, ms: number): unknown;
  clear(h: unknown): void;
}

const realClock: GateClock = {
  now: () => Date.now(),
  set: (f, ms) => setTimeout(f, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class AlertGate {
  private readonly pending = new Map<string, unknown>();
  private readonly lastAt = new Map<string, number>();

  constructor(
    private readonly settleMs: number,
    private readonly cooldownMs: number,
    private readonly clock: GateClock = realClock,
  ) {}

  /** Offers an alert under `key`; the latest offer replaces an earlier pending one. */
  offer(key: string, fire: () => void): void {
    this.withdraw(key);
    const now = this.clock.now();
    const last = this.lastAt.get(key);
    const at = Math.max(now + this.settleMs, last === undefined ? 0 : last + this.cooldownMs);
    const h = this.clock.set(() => {
      this.pending.delete(key);
      this.lastAt.set(key, this.clock.now());
      fire();
    }, at - now);
    this.pending.set(key, h);
  }

  /** The condition no longer holds: a pending alert for `key` is dropped. */
  withdraw(key: string): void {
    const h = this.pending.get(key);
    if (h === undefined) return;
    this.clock.clear(h);
    this.pending.delete(key);
  }

  /** Drops everything under a key prefix (a pane that went away). */
  forget(prefix: string): void {
    for (const k of [...this.pending.keys()]) if (k.startsWith(prefix)) this.withdraw(k);
    for (const k of [...this.lastAt.keys()]) if (k.startsWith(prefix)) this.lastAt.delete(k);
  }
}
