// `stdio/adopt`: the daemon takes over the pipes `pane serve --stdio` was started
// with (by sshd, `docker exec -i`, …), so a remote client's bytes reach the daemon
// without a relay process copying each of them twice (issue 26: the relay was a
// fifth process hop on every keystroke and 2–5 ms of CPU per MB on every stream).
// Node cannot pass a descriptor over a unix socket; Linux lets a process open
// another's pipe anew through /proc/PID/fd/N, which is what this does.
//
// Authority: only a client on the person's own socket gets here (its Grant carries
// `adopt`), so the caller already acts as the person and names nothing it could not
// open itself. What is opened must be a pipe (a FIFO by fstat), and the very pipe the
// caller's fstat described (device and inode): a pid reused by another process, a
// pid that never was the caller's, a socket, a terminal or a file is refused, and the
// relay goes on relaying. Opened non-blocking, so a pipe without a reader fails at once
// (ENXIO) instead of holding the daemon.
import fs from 'node:fs';
import net from 'node:net';
import { faults, PaneFault } from '../../kits/protocol/error';
import { stdioFramingRefusal } from '../../kits/protocol/stdio';
import type { Params } from '../../kits/protocol/index';
import type { PipeIdentity } from '../../kits/protocol/stdioAdopt';
import { StreamTransport } from '../../kits/node/streamTransport';
import type { ClientConn } from './clientConn';

/** The adopted stream's transport kind, as `client/list` and the door's log lines name it. */
export const ADOPTED_STDIO_KIND = 'stdio';

/** Opens the caller's fd `n` (0 or 1) and checks it is the pipe it said; the fd, or a fault naming why not. */
function openPipeOf(pid: number, n: 0 | 1, want: PipeIdentity): number {
  const what = n === 0 ? 'stdin' : 'stdout';
  const flags = (n === 0 ? fs.constants.O_RDONLY : fs.constants.O_WRONLY) | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY;
  const at = `/proc/${pid}/fd/${n}`;
  const check = (st: fs.BigIntStats): void => {
    if (!st.isFIFO()) throw faults.failed(`${at} (the caller's ${what}) is no pipe; only pipes are taken over`);
    if (String(st.dev) !== want.dev || String(st.ino) !== want.ino) throw faults.failed(`${at} is not the ${what} the caller described (device ${st.dev} inode ${st.ino}, not ${want.dev} ${want.ino}): another process, or another pid namespace`);
  };
  const cannot = (e: unknown): PaneFault => (e instanceof PaneFault ? e : faults.failed(`cannot open ${at} (the caller's ${what}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
  // Looked at before it is opened: opening a FIFO is itself felt at its other end (a writer blocked in open goes on), so what is not the caller's is never opened.
  try {
    check(fs.statSync(at, { bigint: true }));
  } catch (e) {
    throw cannot(e);
  }
  let fd: number;
  try {
    fd = fs.openSync(at, flags);
  } catch (e) {
    throw cannot(e);
  }
  try {
    // And again once open: the descriptor may have been replaced in between.
    check(fs.fstatSync(fd, { bigint: true }));
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** What stdio/adopt names: the relay's pid and what its fstat says its stdin and stdout are. */
export type AdoptRequest = Params<'stdio/adopt'>;

/**
 * Takes the relay's stdin and stdout over as a connection of the door `admit` admits
 * to (the person's socket), tied to the relay's own connection: whichever ends first
 * ends the other. The adopted client's id; a fault (nothing left open) when either fd
 * is not the pipe described, or the door is full.
 */
export function adoptStdio(p: AdoptRequest, relay: ClientConn, admit: (t: StreamTransport) => ClientConn | undefined): string {
  const t = openStdio(p);
  t.onClose(() => relay.close('the stdio it handed over has closed'));
  relay.transport.onClose(() => t.close('the pane serve --stdio that handed it over has gone'));
  const adopted = admit(t);
  if (!adopted) throw faults.failed("the pane server's socket is full; the stdio was not taken over");
  return adopted.id;
}

/** The caller's stdin and stdout as a transport of their own; a fault (nothing left open) when either is not the pipe the caller described. */
function openStdio(p: AdoptRequest): StreamTransport {
  const inFd = openPipeOf(p.pid, 0, p.stdin);
  let outFd: number;
  try {
    outFd = openPipeOf(p.pid, 1, p.stdout);
  } catch (e) {
    fs.closeSync(inFd);
    throw e;
  }
  const input = new net.Socket({ fd: inFd, readable: true, writable: false });
  const output = new net.Socket({ fd: outFd, readable: false, writable: true });
  // As the relay did before it stepped aside: a stream that breaks the framing is told so in words first.
  return new StreamTransport(input, output, ADOPTED_STDIO_KIND, {
    farewell: (e) => JSON.stringify({ t: 'res', id: null, ok: false, error: { code: e.code, message: stdioFramingRefusal(e.message) } }),
  });
}
