// What the kernel knows of a TCP connection that Node does not tell: whether bytes
// sent on it wait for the peer, and when the peer's kernel last acknowledged any
// (Linux's TCP_INFO, read through libc's getsockopt: kits/node/libc.ts). TCP
// keepalive asks after a peer only while nothing waits; with bytes waiting the
// kernel retransmits (or probes a zero window) instead, and by itself gives up only
// after `tcp_retries2`, ~15 minutes.
import type net from 'node:net';
import { loadLibc } from './libc';

const IPPROTO_TCP = 6;
const TCP_INFO = 11;
/** struct tcp_info's size on Linux 6 (the kernel fills what it has; the fields read here are all from Linux 4.6 on). */
const TCP_INFO_BYTES = 232;
/** Offsets in struct tcp_info (include/uapi/linux/tcp.h). */
const AT = { retransmits: 2, probes: 3, unacked: 24, lastAckRecv: 56, notSent: 144 } as const;

export interface TcpState {
  /** Segments sent and not acknowledged. */
  unacked: number;
  /** Bytes in the kernel's queue not sent yet (a zero window, a full congestion window). */
  notSent: number;
  /** ms since the peer's kernel last acknowledged anything (data, or a probe of its window). */
  lastAckRecvMs: number;
  /** Retransmissions in a row with no acknowledgment (icsk_retransmits). */
  retransmits: number;
  /** Zero-window probes in a row with no answer (icsk_probes_out): a peer that is there answers them (at most one every 500 ms). */
  probes: number;
}

/** The state of a socket's connection; null when it has no descriptor (closed, not TCP) or the kernel refused. */
export type ReadTcpState = (sock: net.Socket) => TcpState | null;

let loaded: ReadTcpState | string | undefined;

/** The reader, or why this machine has none (not Linux, koffi not installed, not glibc). */
export function loadTcpState(): ReadTcpState | string {
  loaded ??= bind();
  return loaded;
}

function bind(): ReadTcpState | string {
  const libc = loadLibc();
  if (typeof libc === 'string') return libc;
  let getsockopt: (fd: number, level: number, name: number, value: Buffer, len: number[]) => number;
  try {
    getsockopt = libc.func('int getsockopt(int fd, int level, int name, void *value, _Inout_ uint32_t *len)') as typeof getsockopt;
  } catch (e) {
    return `no getsockopt in libc (${(e as Error).message.split('\n')[0]})`;
  }
  const buf = Buffer.alloc(TCP_INFO_BYTES);
  return (sock) => {
    // libuv keeps the descriptor on the handle (a TLS socket's handle too).
    const fd = (sock as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd;
    if (typeof fd !== 'number' || fd < 0) return null;
    buf.fill(0);
    const len = [TCP_INFO_BYTES];
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, buf, len) !== 0 || len[0]! < AT.notSent + 4) return null;
    return {
      unacked: buf.readUInt32LE(AT.unacked),
      notSent: buf.readUInt32LE(AT.notSent),
      lastAckRecvMs: buf.readUInt32LE(AT.lastAckRecv),
      retransmits: buf[AT.retransmits]!,
      probes: buf[AT.probes]!,
    };
  };
}
