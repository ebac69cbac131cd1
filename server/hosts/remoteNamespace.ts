// A joined host's panes in this server's namespace (issue 26, decision 037):
// /HOST:N/ beside the local /N/, each list, stat, read and write answered by
// that host's own namespace (its /N/ files) over the host link. The remote's
// answers are untrusted: names checked, sizes bounded, paths named as here.
import { PaneFault } from '../../kits/protocol/error';
import { HostNameSchema } from '../../kits/protocol/ids';
import { NS_MAX_COUNT, type NsEntry, type NsStat } from '../../kits/protocol/namespace';
import type { MethodName, ParamsIn, Result } from '../../kits/protocol/index';
import type { Pane } from '../../kits/protocol/model';
import type { HandlerContext } from '../handlers/types';
import { decodeName } from '../namespace/lines';
import { segments } from '../namespace/resolve';
import type { RemoteNs, RemotePath } from '../namespace/types';
import type { PaneServer } from '../paneServer';
import { readOnlyFault } from './hostLink';
import type { HostService } from './hostService';

/**
 * Longest a namespace call waits for its host. An `ls` or `cat` through the FUSE
 * mount blocks the program that made it, and a stale host's answers may never come:
 * 5 s is past any live link's round trip (the heartbeat marks a host stale after
 * STALE_AFTER_MS of silence) and short of link.call's FORWARD_TIMEOUT_MS, which is
 * for requests a person sent on purpose.
 */
export const NS_REMOTE_TIMEOUT_MS = 5_000;

/** Entries a remote pane directory may list: a pane has about ten files; more is a remote that lies. */
export const MAX_REMOTE_NS_ENTRIES = 256;

/** A remote entry's name: one path element, as the namespace's own file names are (no "/", no "." or ".."). */
const ENTRY_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

/** A first path element that names another host's pane: HOST:N. */
const HOST_PANE = /^([^:/]+):([1-9][0-9]{0,9})$/;

/** The views a remote pane appears in, and the pane field each groups by (by-session is not one: a remote pane's session is named on its host). */
const REMOTE_VIEWS: Record<string, (p: Pane) => string> = { 'by-sig': (p) => p.signature, 'by-owner': (p) => p.owner };

/** Permission bits only (a remote's mode cannot claim setuid or a file type). */
const PERM_BITS = 0o777;

/** What the remote namespace uses of the rest of the server: the state owner (its host name, its bus). */
export interface RemoteNamespaceDeps {
  server: PaneServer;
}

export class RemoteNamespace implements RemoteNs {
  constructor(
    private readonly deps: RemoteNamespaceDeps,
    private readonly hosts: HostService,
  ) {}

  match(path: string): RemotePath | undefined {
    const segs = segments(path);
    // /HOST:N/… or a view's /by-sig/SIG/HOST:N/… (the pane must be in that view, as a local one must).
    const view = segs[0] !== undefined ? REMOTE_VIEWS[segs[0]] : undefined;
    const at = view !== undefined && segs.length >= 3 ? 2 : 0;
    const first = segs[at];
    const m = first === undefined ? null : HOST_PANE.exec(first);
    if (!m) return undefined;
    const host = m[1]!;
    // This server's own name, or a name with no host file: the local resolver answers (and refuses by name).
    if (host === this.deps.server.host || !HostNameSchema.safeParse(host).success || !this.hosts.links.has(host)) return undefined;
    const n = Number(m[2]);
    if (view !== undefined && at === 2) {
      const key = decodeName(segs[1]!);
      const p = this.hosts.remotePanes().find((x) => x.host === host && x.n === n);
      if (!p || view(p) !== key) return undefined; // the local resolver says it is not in that view
    }
    const rest = segs.slice(at + 1);
    const tail = rest.length > 0 ? '/' + rest.join('/') : '';
    return { host, n, local: '/' + segs.join('/'), remote: `/${n}${tail}` };
  }

  rootEntries(ctx: HandlerContext): NsEntry[] {
    return this.panes(ctx).map((p) => ({ name: `${p.host}:${p.n}`, type: 'dir' as const, mode: 0o555, size: 0 }));
  }

  panes(ctx: HandlerContext): Pane[] {
    return ctx.client.checkAccess !== undefined ? [] : this.hosts.remotePanes();
  }

  async list(ctx: HandlerContext, r: RemotePath): Promise<{ path: string; entries: NsEntry[] }> {
    const out = await this.call(ctx, r, 'ns/list', { path: r.remote });
    if (out.entries.length > MAX_REMOTE_NS_ENTRIES) throw this.lied(r, `listed ${out.entries.length} entries (MAX_REMOTE_NS_ENTRIES ${MAX_REMOTE_NS_ENTRIES})`);
    const bad = out.entries.find((e) => !ENTRY_NAME.test(e.name));
    if (bad) throw this.lied(r, `listed an entry named ${JSON.stringify(bad.name.slice(0, 80))} (one path element of letters, digits, ".", "_", "-")`);
    return { path: r.local, entries: out.entries.map((e) => ({ ...e, mode: this.mode(r, e.mode) })) };
  }

  async stat(ctx: HandlerContext, r: RemotePath): Promise<NsStat> {
    const s = await this.call(ctx, r, 'ns/stat', { path: r.remote });
    const name = segments(r.local).at(-1) ?? '';
    return { ...s, path: r.local, name, mode: this.mode(r, s.mode), doc: s.doc.slice(0, 512) };
  }

  async read(ctx: HandlerContext, r: RemotePath, offset: number, count: number) {
    const want = Math.min(count, NS_MAX_COUNT);
    const out = await this.call(ctx, r, 'ns/read', { path: r.remote, offset, count: want });
    const bytes = Buffer.from(out.data, out.encoding === 'base64' ? 'base64' : 'utf8');
    // The schema checked the shape; the sizes are the remote's word: held to what was asked.
    if (bytes.byteLength > want || out.count !== bytes.byteLength) throw this.lied(r, `answered ${bytes.byteLength} bytes (count ${out.count}) to a read of at most ${want}`);
    if (out.offset !== offset && bytes.byteLength > 0) throw this.lied(r, `answered from offset ${out.offset} to a read at ${offset}`);
    return { data: out.data, encoding: out.encoding, offset, count: bytes.byteLength, eof: out.eof };
  }

  mayWrite(ctx: HandlerContext, r: RemotePath): void {
    this.mayTouch(ctx, r);
    const link = this.hosts.link(r.host);
    if (link.entry.readOnly) {
      const f = readOnlyFault(link, `a write to ${r.local}`, r.local);
      this.refused(r, f.message.slice('denied: '.length));
      throw f;
    }
  }

  async write(ctx: HandlerContext, r: RemotePath, data: string, encoding: 'utf8' | 'base64'): Promise<{ count: number }> {
    this.mayWrite(ctx, r);
    const sent = Buffer.byteLength(data, encoding === 'base64' ? 'base64' : 'utf8');
    const out = await this.call(ctx, r, 'ns/write', { path: r.remote, data, encoding });
    // new/ctl's pane and ctl never come from a pane's own files: only the count, held to what was sent.
    return { count: Math.min(Math.max(out.count, 0), sent) };
  }

  /** An agent's .access names this server's panes only (decision 037): no other host's files, read or write. */
  private mayTouch(ctx: HandlerContext, r: RemotePath): void {
    if (ctx.client.checkAccess === undefined) return;
    const why = `an agent's .access names this server's panes only; ${r.local} is host ${r.host}'s (the person's own namespace shows it)`;
    this.deps.server.publish('agent/denied', { name: ctx.client.name, method: 'ns', reason: `remote pane: ${why}`, at: Date.now() });
    throw new PaneFault('denied', `denied: ${why}`, { reason: 'remote pane', subject: r.local });
  }

  /** A mode as the remote gave it, permission bits only, without write bits for a read-only host. */
  private mode(r: RemotePath, mode: number): number {
    const m = mode & PERM_BITS;
    return this.hosts.link(r.host).entry.readOnly ? m & ~0o222 : m;
  }

  /** One call to the host's namespace, bounded by NS_REMOTE_TIMEOUT_MS; a host not up is named with its state. */
  private async call<M extends MethodName>(ctx: HandlerContext, r: RemotePath, method: M, params: ParamsIn<M>): Promise<Result<M>> {
    this.mayTouch(ctx, r);
    const link = this.hosts.link(r.host);
    if (link.state !== 'connected' && link.state !== 'stale') {
      throw new PaneFault('failed', `${r.local}: host ${r.host} is ${link.state}${link.error ? ` (${link.error})` : ''}; pane host connect ${r.host}`, { subject: r.local });
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PaneFault('failed', `${r.local}: host ${r.host} (${link.state}) did not answer ${method} within ${NS_REMOTE_TIMEOUT_MS} ms (NS_REMOTE_TIMEOUT_MS); pane host ls shows its state`, { subject: r.local })),
        NS_REMOTE_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([link.call(method, params), deadline]);
    } catch (e) {
      // The remote's own refusal names its path (/3/body): named here as this server names it.
      if (e instanceof PaneFault) throw new PaneFault(e.code, e.message.split(r.remote).join(r.local), { subject: r.local, ...(e.reason !== undefined ? { reason: e.reason } : {}) });
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private lied(r: RemotePath, what: string): PaneFault {
    const why = `host ${r.host} ${what} for ${r.local}; the answer was dropped`;
    this.refused(r, why);
    return new PaneFault('failed', why, { subject: r.local });
  }

  private refused(r: RemotePath, reason: string): void {
    this.deps.server.publish('client/refused', { door: `namespace of host ${r.host}`, reason });
  }
}
