// A periodic job that runs only while it has something to look after, so an idle
// daemon does not wake for it (issue 35: tmux's idle server makes no wakeups at all;
// pane's made about a dozen a second, each timer of its own on a loop with nothing to
// do). Whoever makes work for it pokes it (a host file read, a stand-in made, an
// agent connected); it then ticks every `everyMs` and stops itself after the first
// tick that leaves nothing needed. A poke while it runs changes nothing.

export class TickWhileNeeded {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    /** Whether anything is left to look after; read at a poke and after every tick. */
    private readonly needed: () => boolean,
    private readonly tick: () => void,
  ) {}

  /** Something may need ticks now: start them unless running, stopped or not needed. */
  poke(): void {
    if (this.timer || this.stopped || !this.needed()) return;
    this.timer = setInterval(() => {
      this.tick();
      if (!this.needed()) this.pause();
    }, this.everyMs);
    this.timer.unref();
  }

  /** Whether ticks are being made now. */
  get running(): boolean {
    return this.timer !== null;
  }

  /** No more ticks, for good (the service stopping). */
  stop(): void {
    this.stopped = true;
    this.pause();
  }

  private pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
