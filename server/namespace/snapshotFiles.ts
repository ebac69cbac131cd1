// /server/snapshots: the kept state generations as lines, and a ctl-like write
// (`save`, `restore GEN|TIME`) that goes through the same state/* requests as the CLI.
import { PaneFault } from '../../kits/protocol/error';
import { rpc } from './call';
import type { Call, WriteOutcome } from './types';

export async function snapshotsRead(c: Call): Promise<Buffer> {
  const { generations } = await rpc(c, 'state/generations', {});
  return Buffer.from(generations.map((g) => `${g.gen} ${new Date(g.savedAt).toISOString()} sessions ${g.sessions} panes ${g.panes} bytes ${g.bytes}\n`).join(''));
}

export async function snapshotsWrite(c: Call, data: Buffer): Promise<WriteOutcome> {
  for (const line of data.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean)) {
    const [verb, arg, ...rest] = line.split(/\s+/);
    if (verb === 'save' && arg === undefined) await rpc(c, 'state/save', {});
    else if (verb === 'restore' && arg !== undefined && rest.length === 0) {
      if (/^\d+$/.test(arg)) await rpc(c, 'state/restore', { gen: Number(arg) });
      else if (!Number.isNaN(Date.parse(arg))) await rpc(c, 'state/restore', { at: Date.parse(arg) });
      else throw new PaneFault('bad-request', `restore takes a generation number or a time, not ${arg}`, { subject: arg });
    } else throw new PaneFault('bad-request', `snapshots takes "save" or "restore GEN|TIME", not "${line.slice(0, 80)}"`, { subject: 'snapshots' });
  }
  return {};
}
