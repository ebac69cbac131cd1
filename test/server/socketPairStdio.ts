// A `pane serve --stdio` (or any stdio command) started as Node's spawn starts a child
// with 'pipe': its stdin and stdout are socket pairs, which the daemon cannot take over
// (stdio/adopt opens pipes only), so the relay relays. dial()'s exec gives pipes
// (kits/node/fifoStdio.ts); tests of the relay's own path start it this way instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { awaitPreamble } from '../../kits/node/stdioPreamble';
import { StreamTransport } from '../../kits/node/streamTransport';

/** The command's stdio as a transport once its preamble is seen, and the child (to end it by its pid). */
export async function socketPairStdio(argv: readonly string[]): Promise<{ transport: StreamTransport; child: ChildProcess }> {
  const [cmd, ...args] = argv as [string, ...string[]];
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin!.on('error', () => undefined); // a child that exits first: its end says why
  const pre = await awaitPreamble(child.stdout!, { what: `${cmd} (over socket pairs)` });
  const transport = new StreamTransport(child.stdout!, child.stdin!, 'exec', { head: pre.head });
  child.stdout!.resume();
  return { transport, child };
}
