// How namespace files reach the state: every read and write is a protocol
// request through the server's dispatcher (ctx.dispatch), with the caller's own client, so a file gets
// exactly the validation, capability checks and typed errors of the protocol.
import { PaneFault } from '../../kits/protocol/error';
import type { MethodName, ParamsIn, Result } from '../../kits/protocol/index';
import type { Pane } from '../../kits/protocol/model';
import type { Call } from './types';

export async function rpc<M extends MethodName>(c: Call, method: M, params: ParamsIn<M>): Promise<Result<M>> {
  return c.ctx.dispatch(method, params);
}

/** The rectangle the server lays a pane out in, if it is visible. */
export async function rectOf(c: Call, p: Pane) {
  const { rects } = await rpc(c, 'pane/geometry', { session: p.session });
  return rects[String(p.n)];
}

export const nsFaults = {
  notFound: (path: string, why = 'no such file') => new PaneFault('not-found', `${path}: ${why}`, { subject: path }),
  isDir: (path: string) => new PaneFault('is-directory', `${path} is a directory`, { subject: path }),
  notDir: (path: string) => new PaneFault('not-directory', `${path} is not a directory`, { subject: path }),
  notPermitted: (path: string, why: string) => new PaneFault('not-permitted', `${path}: ${why}`, { subject: path, reason: why }),
  busy: (path: string, why: string) => new PaneFault('busy', `${path}: ${why}`, { subject: path, reason: why }),
  bad: (path: string, why: string) => new PaneFault('bad-request', `${path}: ${why}`, { subject: path }),
};

/** Text written to a file: UTF-8, with one trailing newline (echo's) dropped. */
export function writtenText(data: Buffer): string {
  return data.toString('utf8').replace(/\r?\n$/, '');
}

/** Non-empty lines of a write, each a message (ctl, attrs, event write-backs). */
export function writtenLines(data: Buffer): string[] {
  return data
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Rewrites a fault so its message says which line of a multi-line write it came from. */
export function atLine(e: unknown, path: string, i: number, line: string): unknown {
  if (!(e instanceof PaneFault)) return e;
  const opts: { reason?: string; subject?: string } = { subject: path };
  if (e.reason !== undefined) opts.reason = e.reason;
  return new PaneFault(e.code, `${path} line ${i + 1} (${JSON.stringify(line)}): ${e.message}`, opts);
}
