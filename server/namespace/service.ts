// The six namespace operations (list, stat, open, close, read, write) over the
// table: mode checks, handles, pieces by offset and their encoding. The ns/*
// handlers are thin calls into these.
import { MAX_JSON_FRAME } from '../../kits/protocol/binary';
import { jsonFrameOver } from '../../kits/protocol/frameSize';
import type { NsEntry, NsStat } from '../../kits/protocol/namespace';
import type { HandlerContext } from '../handlers/types';
import { nsFaults } from './call';
import { resolve, normalize, type Resolved } from './resolve';
import type { Call, Fid, RemotePath, RemoteNs, WriteOutcome } from './types';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Room a read's fields other than `data` may take in its reply frame. */
const PIECE_FRAME_SLACK = 1024;

/**
 * A piece as text when it is whole UTF-8 (almost always: pieces end on a character),
 * else base64. Text of control bytes is six characters a byte as JSON (\u001b): a
 * piece that would not fit one frame as text goes as base64 (4/3 of its bytes, which
 * NS_MAX_COUNT keeps within a frame), never as a reply the server must refuse.
 */
export function encodePiece(piece: Buffer): { data: string; encoding: 'utf8' | 'base64' } {
  let text: string;
  try {
    text = strictUtf8.decode(piece);
  } catch {
    return { data: piece.toString('base64'), encoding: 'base64' };
  }
  const room = MAX_JSON_FRAME - PIECE_FRAME_SLACK;
  if (piece.byteLength * 6 > room && jsonFrameOver(JSON.stringify(text), room) !== null) return { data: piece.toString('base64'), encoding: 'base64' };
  return { data: text, encoding: 'utf8' };
}

/** Ends a piece before a character cut in two, so the next piece starts whole. */
export function cutAtCharacter(buf: Buffer, start: number, end: number): number {
  if (end >= buf.byteLength || end - start < 4) return end;
  let e = end;
  // Back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (e > start && e > end - 4 && (buf[e]! & 0xc0) === 0x80) e--;
  return e > start ? e : end;
}

function call(ctx: HandlerContext, fid?: Fid): Call {
  return { ns: ctx.services.namespace, ctx, ...(fid ? { fid } : {}) };
}

function handle(ctx: HandlerContext, id: number, path: string): Fid {
  const f = ctx.services.namespace.fid(ctx.client.id, id);
  if (!f) throw nsFaults.bad(path, `no open handle ${id} on this connection (closed, or never opened)`);
  if (f.path !== normalize(path)) throw nsFaults.bad(path, `handle ${id} is open on ${f.path}, not ${normalize(path)}`);
  return f;
}

/** A path under a joined host's pane (/HOST:N/…) and the namespace that answers it there, or undefined for a local path. */
function remoteOf(ctx: HandlerContext, path: string): { r: RemotePath; remote: RemoteNs } | undefined {
  const remote = ctx.services.namespace.remote;
  if (!remote || path.includes('\0')) return undefined;
  const r = remote.match(normalize(path));
  return r ? { r, remote } : undefined;
}

/** A handle's target, refreshed: the pane it was opened on must still exist. */
async function current(c: Call, f: Fid): Promise<Resolved> {
  // A stream handle outlives its pane: its reads end (empty) rather than fail, as a pipe's writer closing does.
  if (f.target.pane === undefined || f.reader) return { row: f.row, target: f.target };
  return resolve(c, f.path);
}

export async function nsList(ctx: HandlerContext, path: string): Promise<{ path: string; entries: NsEntry[] }> {
  const far = remoteOf(ctx, path);
  if (far) return far.remote.list(ctx, far.r);
  const c = call(ctx);
  const { row, target } = await resolve(c, path);
  if (row.type !== 'dir' || !row.list) throw nsFaults.notDir(target.path);
  return { path: target.path, entries: await row.list(c, target) };
}

export async function nsStat(ctx: HandlerContext, path: string): Promise<NsStat> {
  const far = remoteOf(ctx, path);
  if (far) return far.remote.stat(ctx, far.r);
  const c = call(ctx);
  const { row, target } = await resolve(c, path);
  const feed = row.feed?.(c, target);
  return {
    path: target.path,
    name: target.name,
    type: row.type,
    mode: row.mode,
    size: feed?.size ?? 0,
    stream: row.stream === true,
    mtime: feed?.mtime ?? target.pane?.createdAt ?? c.ns.server.startedAt,
    doc: row.doc,
  };
}

export async function nsOpen(ctx: HandlerContext, path: string, mode: 'r' | 'w' | 'rw') {
  const far = remoteOf(ctx, path);
  if (far) return openRemote(ctx, far.r, far.remote, mode);
  const c = call(ctx);
  const { row, target } = await resolve(c, path);
  if (row.type === 'dir') throw nsFaults.isDir(target.path);
  if (mode !== 'w' && (row.mode & 0o444) === 0) throw nsFaults.notPermitted(target.path, 'write-only');
  if (mode !== 'r') {
    if ((row.mode & 0o222) === 0 || !row.put) throw nsFaults.notPermitted(target.path, 'read-only');
    if (!ctx.client.capabilities.has('write')) throw nsFaults.notPermitted(target.path, 'opening for writing needs the write capability');
  }
  const intercept = row.path === '/<n>/event' && mode === 'rw' ? target.pane!.n : undefined;
  if (intercept !== undefined && c.ns.interceptorOf(intercept)) {
    throw nsFaults.busy(target.path, `pane ${intercept}’s executions are already intercepted by another reader; open it read-only to watch`);
  }
  const feed = row.feed?.(c, target);
  const fid = c.ns.addFid({
    client: ctx.client.id,
    path: target.path,
    mode,
    row,
    target,
    ...(feed ? { reader: feed.subscribe() } : {}),
    ...(intercept !== undefined ? { intercepting: intercept } : {}),
  });
  if (intercept !== undefined) c.ns.setInterceptor(intercept, { offer: (line, origin, by) => void c.ns.offer(intercept, { line, origin, by }) });
  return { fid: fid.id, path: fid.path, stream: row.stream === true, size: feed?.size ?? 0 };
}

/** A handle on a joined host's pane file: checked against the host's own stat, then read and written by path there. */
async function openRemote(ctx: HandlerContext, r: RemotePath, remote: RemoteNs, mode: 'r' | 'w' | 'rw') {
  const s = await remote.stat(ctx, r);
  if (s.type === 'dir') throw nsFaults.isDir(r.local);
  if (mode !== 'w' && (s.mode & 0o444) === 0) throw nsFaults.notPermitted(r.local, 'write-only');
  if (mode !== 'r') {
    remote.mayWrite(ctx, r);
    if ((s.mode & 0o222) === 0) throw nsFaults.notPermitted(r.local, 'read-only');
    if (!ctx.client.capabilities.has('write')) throw nsFaults.notPermitted(r.local, 'opening for writing needs the write capability');
    // Interception (event opened rw) holds the pane's executions for a reader here: not across a link.
    if (s.stream && mode === 'rw') throw nsFaults.notPermitted(r.local, `intercepting another host's executions is not forwarded; open it read-only to watch, or intercept on ${r.host} itself`);
  }
  const row = { path: '/<host>:<n>/*', type: s.type, mode: s.mode, doc: s.doc, read: '', write: '' } as const;
  const fid = ctx.services.namespace.addFid({ client: ctx.client.id, path: r.local, mode, row, target: { path: r.local, name: s.name }, remote: r });
  return { fid: fid.id, path: fid.path, stream: s.stream, size: s.size };
}

export function nsClose(ctx: HandlerContext, id: number) {
  const ns = ctx.services.namespace;
  const f = ns.fid(ctx.client.id, id);
  if (!f) throw nsFaults.bad(`fid ${id}`, `no open handle ${id} on this connection`);
  ns.closeFid(f);
  return { fid: id };
}

export interface ReadParams {
  path: string;
  fid?: number | undefined;
  offset?: number | undefined;
  count: number;
  wait: boolean;
}

export async function nsRead(ctx: HandlerContext, p: ReadParams) {
  const f = p.fid === undefined ? undefined : handle(ctx, p.fid, p.path);
  const far = f ? (f.remote && ctx.services.namespace.remote ? { r: f.remote, remote: ctx.services.namespace.remote } : undefined) : remoteOf(ctx, p.path);
  if (far) {
    if (f && f.mode === 'w') throw nsFaults.notPermitted(far.r.local, `handle ${f.id} was opened write-only`);
    return far.remote.read(ctx, far.r, p.offset ?? 0, p.count);
  }
  const c = call(ctx, f);
  const { row, target } = f ? await current(c, f) : await resolve(c, p.path);
  if (row.type === 'dir') throw nsFaults.isDir(target.path);
  if ((row.mode & 0o444) === 0) throw nsFaults.notPermitted(target.path, 'write-only');
  if (f && f.mode === 'w') throw nsFaults.notPermitted(target.path, `handle ${f.id} was opened write-only`);
  if (row.feed) {
    // Through a handle, a waiting read (or one without an offset) reads the handle's own stream.
    if (f?.reader && (p.wait || p.offset === undefined)) {
      const { offset, data } = await f.reader.readAt(p.offset, p.count, p.wait);
      return { ...encodePiece(data), offset, count: data.byteLength, eof: f.reader.pending === 0 };
    }
    const feed = row.feed(c, target);
    const offset = p.offset ?? 0;
    const piece = feed.read(offset, p.count);
    return { ...encodePiece(piece), offset, count: piece.byteLength, eof: offset + piece.byteLength >= feed.size };
  }
  const offset = p.offset ?? 0;
  // Through a handle, a read from 0 renders the file anew and later pieces reuse it: one cat, one version.
  let buf = f && offset > 0 ? f.content : undefined;
  if (buf === undefined) {
    buf = await row.content!(c, target, offset);
    if (f) f.content = buf;
  }
  const start = Math.min(offset, buf.byteLength);
  const end = cutAtCharacter(buf, start, Math.min(start + p.count, buf.byteLength));
  const piece = buf.subarray(start, end);
  return { ...encodePiece(piece), offset: start, count: piece.byteLength, eof: end >= buf.byteLength };
}

export interface WriteParams {
  path: string;
  fid?: number | undefined;
  data: string;
  encoding: 'utf8' | 'base64';
}

export async function nsWrite(ctx: HandlerContext, p: WriteParams): Promise<{ count: number } & WriteOutcome> {
  const f = p.fid === undefined ? undefined : handle(ctx, p.fid, p.path);
  const far = f ? (f.remote && ctx.services.namespace.remote ? { r: f.remote, remote: ctx.services.namespace.remote } : undefined) : remoteOf(ctx, p.path);
  if (far) {
    if (f && f.mode === 'r') throw nsFaults.notPermitted(far.r.local, `handle ${f.id} was opened read-only`);
    return far.remote.write(ctx, far.r, p.data, p.encoding);
  }
  const c = call(ctx, f);
  const { row, target } = f ? await current(c, f) : await resolve(c, p.path);
  if (row.type === 'dir') throw nsFaults.isDir(target.path);
  if ((row.mode & 0o222) === 0 || !row.put) throw nsFaults.notPermitted(target.path, 'read-only');
  if (f && f.mode === 'r') throw nsFaults.notPermitted(target.path, `handle ${f.id} was opened read-only`);
  const data = Buffer.from(p.data, p.encoding === 'base64' ? 'base64' : 'utf8');
  const out = await row.put(c, target, data);
  if (f) delete f.content;
  return { count: data.byteLength, ...out };
}
