// The shapes the namespace table is made of: a row (one file or directory of the
// tree, with its mode, doc and functions), the call a row function is given,
// and an open handle. Kept apart so rows, resolver and handlers share them.
import type { NsEntry, NsStat } from '../../kits/protocol/namespace';
import type { Pane } from '../../kits/protocol/model';
import type { HandlerContext } from '../handlers/types';
import type { Feed, FeedReader } from './feed';
import type { Namespace } from './namespace';

/** What a path resolved to: its row, and the pane or name it is about. */
export interface Target {
  /** The normalized path asked for (/by-sig/x/3/ctl stays as asked). */
  path: string;
  name: string;
  pane?: Pane;
  /** The view's key (signature, owner or session name) for by-* directories. */
  key?: string;
}

/** An open handle (fid) of one client. */
export interface Fid {
  id: number;
  client: string;
  path: string;
  mode: 'r' | 'w' | 'rw';
  row: Row;
  target: Target;
  /** Streams: every line appended since the open, for blocking reads. */
  reader?: FeedReader;
  /** Computed files: the content this handle first read, so one cat sees one version. */
  content?: Buffer;
  /** new/ctl: the pane created through this handle. */
  created?: number;
  /** /server/grants: the grant issued through this handle, with its token (JSON), read back through it alone. */
  issued?: string;
  /** event opened read-write: the pane this handle intercepts. */
  intercepting?: number;
  /** A joined host's pane file (/HOST:N/…): reads and writes go to that host's namespace. */
  remote?: RemotePath;
}

/** A path under a joined host's pane directory: /HOST:N/REST here, /N/REST on that host. */
export interface RemotePath {
  host: string;
  n: number;
  /** The normalized path as this server names it: /box:3/body. */
  local: string;
  /** The same file in the host's own namespace: /3/body. */
  remote: string;
}

/**
 * The joined hosts' panes in this namespace (server/hosts/remoteNamespace.ts sets
 * it; the namespace imports no host code). Each call is answered by the host's own
 * namespace over its link, bounded, with the host's rules (readOnly, no agents).
 */
export interface RemoteNs {
  /** The remote pane a normalized path is under, or undefined for a path answered here. */
  match(path: string): RemotePath | undefined;
  list(ctx: HandlerContext, r: RemotePath): Promise<{ path: string; entries: NsEntry[] }>;
  stat(ctx: HandlerContext, r: RemotePath): Promise<NsStat>;
  read(ctx: HandlerContext, r: RemotePath, offset: number, count: number): Promise<{ data: string; encoding: 'utf8' | 'base64'; offset: number; count: number; eof: boolean }>;
  /** Throws the named refusal when this client may not write to r (a readOnly host, an agent). */
  mayWrite(ctx: HandlerContext, r: RemotePath): void;
  write(ctx: HandlerContext, r: RemotePath, data: string, encoding: 'utf8' | 'base64'): Promise<{ count: number }>;
  /** The joined hosts' pane directories (HOST:N) for the root listing, as last heard. */
  rootEntries(ctx: HandlerContext): NsEntry[];
  /** The joined hosts' panes as last heard (`host` their host file's name), for /index and the by-sig and by-owner views; none for an agent. */
  panes(ctx: HandlerContext): Pane[];
}

export interface Call {
  ns: Namespace;
  ctx: HandlerContext;
  fid?: Fid;
}

export interface WriteOutcome {
  pane?: number;
  ctl?: string;
}

export interface Row {
  /** The path pattern: <n> is a pane (N or HOST:N); <sig>, <owner>, <session> are view keys. */
  path: string;
  type: 'dir' | 'file';
  /** event and log: growing files whose handles can block for more. */
  stream?: boolean;
  /** Permission bits shown to ls; reads and writes are refused where they are absent. */
  mode: number;
  /** One line for docs/namespace.md and ns/stat. */
  doc: string;
  /** What a read gives, for the doc table ("" = not readable). */
  read: string;
  /** What a write does, for the doc table ("" = not writable). */
  write: string;
  list?(c: Call, t: Target): Promise<NsEntry[]> | NsEntry[];
  /** A computed file's whole content; `offset` > 0 lets a big file serve a cached copy mid-read. */
  content?(c: Call, t: Target, offset: number): Promise<Buffer> | Buffer;
  feed?(c: Call, t: Target): Feed;
  put?(c: Call, t: Target, data: Buffer): Promise<WriteOutcome> | WriteOutcome;
}
