// Lets go of a TCP peer that vanished while bytes were on their way to it. TCP
// keepalive (TLS_KEEPALIVE_MS) finds a vanished peer only while nothing waits for
// it; a follower or a window's stream whose machine went mid-output has bytes
// waiting, which the kernel retransmits until `tcp_retries2` gives up, ~15 minutes.
// Linux's TCP_USER_TIMEOUT would bound that, but also cuts a peer that is there and
// only stopped reading (a follower suspended with Ctrl-Z: a zero window) once its
// window probes, backing off to two minutes apart, leave it unacknowledged that long.
// So this looks itself, only while something was sent: bytes wait, the peer's kernel
// has acknowledged nothing for `boundMs`, and its last retransmission or window
// probes are unanswered too (a peer that is there answers them within a round
// trip; looked at again a moment later before it is cut).
import type net from 'node:net';
import type { ReadTcpState, TcpState } from './tcpState';

/** How often a connection with bytes waiting is looked at: the bound is kept within this. One getsockopt. */
export const UNACKED_CHECK_MS = 10_000;
/** A suspect connection is looked at again after this (far above any round trip) before it is cut: a probe just sent is answered by then. */
export const UNACKED_CONFIRM_MS = 2_000;

export class UnackedWatch {
  private timer: NodeJS.Timeout | null = null;
  private suspect = false;

  constructor(
    private readonly sock: net.Socket,
    private readonly read: ReadTcpState,
    private readonly boundMs: number,
    private readonly why: string,
  ) {
    sock.once('close', () => this.stop());
  }

  /** Bytes were handed to the socket: a look is due, unless one is already. */
  sent(): void {
    if (this.timer === null && !this.sock.destroyed) this.later(UNACKED_CHECK_MS);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private later(ms: number): void {
    this.timer = setTimeout(() => this.look(), ms);
    this.timer.unref();
  }

  private look(): void {
    this.timer = null;
    if (this.sock.destroyed) return;
    const s = this.read(this.sock);
    // Everything acknowledged: keepalive's part from here; the next send looks again.
    if (s === null || !waiting(s, this.sock)) {
      this.suspect = false;
      return;
    }
    if (!silent(s, this.boundMs)) {
      this.suspect = false;
      this.later(Math.max(UNACKED_CONFIRM_MS, Math.min(UNACKED_CHECK_MS, this.boundMs - s.lastAckRecvMs)));
      return;
    }
    if (!this.suspect) {
      this.suspect = true;
      this.later(UNACKED_CONFIRM_MS);
      return;
    }
    this.sock.destroy(Object.assign(new Error(this.why), { code: 'ETIMEDOUT' }));
  }
}

/** Bytes sent and not acknowledged, or not sent yet. */
function waiting(s: TcpState, sock: net.Socket): boolean {
  return s.unacked > 0 || s.notSent > 0 || sock.writableLength > 0;
}

/**
 * The peer's kernel has said nothing for `boundMs`, and what was last sent to it is
 * unanswered: a retransmission, or two window probes in a row (a receiver answers an
 * old segment at most every 500 ms, `tcp_invalid_ratelimit`, and one answer can be
 * lost on the way: one unanswered probe alone does not say the peer is gone).
 */
function silent(s: TcpState, boundMs: number): boolean {
  return s.lastAckRecvMs >= boundMs && (s.retransmits > 0 || s.probes >= 2);
}
