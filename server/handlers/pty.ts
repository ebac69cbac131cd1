// Terminal stream handlers: attach (snapshot then output), detach, ack (flow
// control), read by offset, screen text, PTY size.
import { MAX_GRID_BASES } from '../../kits/protocol/gridLimits';
import { MAX_JSON_FRAME } from '../../kits/protocol/binary';
import { faults } from '../../kits/protocol/error';
import { jsonFrameOver } from '../../kits/protocol/frameSize';
import type { Pane } from '../../kits/protocol/model';
import { paneAllowed } from '../agents/accessCheck';
import { agentOfUser } from '../agents/identity';
import { resizePane } from '../model/paneOps';
import type { PaneServer } from '../paneServer';
import type { HandlerContext, HandlerTable } from './types';
import { principalLabel } from '../../kits/protocol/principal';

/** Awaits a terminal operation; a pane closed meanwhile is pane-not-found, not an internal error. */
async function whileAlive<T>(server: PaneServer, n: number, op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (e) {
    if (!server.panes.has(n)) throw faults.paneNotFound(n);
    throw faults.failed(`pane ${n}: ${(e as Error).message}`);
  }
}

/**
 * Whether this client's flow control may pause the pane. Pausing a program is acting
 * on it, as typing is: a client that may not write to the pane (no write capability,
 * its write permission revoked, or an agent whose .access gives it only panes.read)
 * is sent the output and never waited for, so a read-only viewer cannot freeze a pane.
 */
function mayPace(ctx: HandlerContext, pane: Pane): boolean {
  const c = ctx.client;
  if (!c.capabilities.has('write') || !c.canWrite) return false;
  const me = agentOfUser(ctx.services, c.user);
  return me === null || !ctx.services.agents || paneAllowed(ctx.services.agents, me, pane, 'write');
}

export const ptyHandlers: HandlerTable = {
  'pty/attach': async (p, ctx) => {
    const { server, client } = ctx;
    const pane = server.pane(p.pane);
    const t = server.terminal(pane);
    // After an interrupt: from where the caller's own keys reached the program, never past it (its answer is drawn).
    const from = p.mode === 'from' && p.atInput ? Math.max(p.from ?? 0, t.inputEndOf(principalLabel(client.principal)) ?? t.streamEnd) : p.from;
    const r = await whileAlive(
      server,
      pane.n,
      t.attach(client.sink, {
        mode: p.mode,
        ...(from !== undefined ? { from } : {}),
        flowControl: p.flowControl && mayPace(ctx, pane),
        flowStart: p.flowStart,
        ...(p.history !== undefined ? { history: p.history } : {}),
      }),
    );
    client.attached.add(pane.n);
    server.publish('client/attached', { client: client.id, name: client.name, pane: pane.n });
    return { pane: pane.n, ...r };
  },
  'pty/detach': (p, { server, client }) => {
    const pane = server.pane(p.pane);
    server.terminals.get(pane.n)?.detach(client.sink.id);
    if (client.attached.delete(pane.n)) server.publish('client/detached', { client: client.id, name: client.name, pane: pane.n });
    return { pane: pane.n };
  },
  'pty/ack': (p, { server, client }) => {
    const pane = server.pane(p.pane);
    const unacked = server.terminal(pane).ack(client.sink.id, p.bytes);
    return { pane: pane.n, unacked };
  },
  'pty/read': (p, { server, client }) => {
    const pane = server.pane(p.pane);
    const t = server.terminal(pane);
    // Where the caller's own last input reached it: another's keys (the person's, while an agent waits on its command) move nothing.
    const inputAt = t.inputEndOf(principalLabel(client.principal));
    // Paged to fit one frame: a batch of control bytes as JSON text is up to six times
    // its size (\u001b), so a batch that would not fit is halved until it does; `to`
    // says where it ended and the reader asks again from there.
    for (let max = p.maxBytes; ; max = Math.max(1, max >> 1)) {
      const r = t.read(p.from, max);
      const data = r.data.toString(p.encoding === 'base64' ? 'base64' : 'utf8');
      if (max > 1 && !fitsOneFrame(data, p.encoding)) continue;
      return { pane: pane.n, from: r.from, to: r.to, gap: r.gap, streamStart: r.streamStart, streamEnd: r.streamEnd, data, encoding: p.encoding, ...(inputAt !== null ? { inputAt } : {}) };
    }
  },
  'pty/screen': async (p, { server }) => {
    const pane = server.pane(p.pane);
    return whileAlive(server, pane.n, server.terminal(pane).snapshot({ textOnly: p.form === 'text' }));
  },
  'pty/grid': async (p, { server, client }) => {
    const pane = server.pane(p.pane);
    const t = server.terminal(pane);
    const snap = await whileAlive(server, pane.n, t.snapshot({ textOnly: true }));
    const all = snap.text === '' ? [] : snap.text.split('\n');
    const top = p.top ?? Math.max(0, all.length - p.rows);
    const unchanged = p.base !== undefined && p.base === snap.offset;
    const lines = all.slice(top, top + p.rows);
    const head = { pane: pane.n, offset: snap.offset, cols: snap.cols, rows: snap.rows, total: all.length, top, cursor: snap.cursor, unchanged };
    if (!p.delta) return { ...head, lines: unchanged ? [] : lines };
    // Grid delta (001): what this client was last sent of this pane, and what differs from it now.
    const had = client.gridBases.get(pane.n);
    client.gridBases.delete(pane.n);
    client.gridBases.set(pane.n, { offset: snap.offset, top, lines });
    if (client.gridBases.size > MAX_GRID_BASES) client.gridBases.delete(client.gridBases.keys().next().value!);
    // Following the bottom, the window moves down as output comes: its rows shift up by that much first.
    const shift = had ? top - had.top : 0;
    if (!had || p.base === undefined || had.offset !== p.base || shift < 0 || shift > p.rows || had.lines.length > p.rows) return { ...head, lines, desynced: true };
    const changed: { row: number; text: string }[] = [];
    for (let i = 0; i < Math.max(lines.length, had.lines.length - shift); i++) if (lines[i] !== had.lines[i + shift]) changed.push({ row: i, text: lines[i] ?? '' });
    return { ...head, lines: [], changed, shift, desynced: false };
  },
  'pty/resize': (p, { server }) => {
    const pane = server.pane(p.pane);
    server.terminal(pane); // a pane without one is refused, naming its body
    resizePane(server, pane, p.cols, p.rows);
    return { pane: pane.n, cols: p.cols, rows: p.rows };
  },
};

/** Room a batch's fields other than `data` may take in its reply frame. */
const BATCH_FRAME_SLACK = 1024;

/** Whether `data` as a JSON string leaves a batch reply within MAX_JSON_FRAME. */
function fitsOneFrame(data: string, encoding: 'utf8' | 'base64'): boolean {
  const room = MAX_JSON_FRAME - BATCH_FRAME_SLACK;
  if (encoding === 'base64' || data.length * 6 <= room) return data.length <= room;
  return jsonFrameOver(JSON.stringify(data), room) === null;
}
