// /server/grants: the attach grants alive, as the reader may list them (grant/list:
// the person's alone, never an agent's or a guest's), and a ctl-like write that
// issues and revokes through the same grant/* requests as `pane grant`. A token is
// said once: a handle that issued a grant reads back that grant with its token,
// every other read lists grants without one (the server keeps only their hashes).
import { PaneFault } from '../../kits/protocol/error';
import { grantDuration, MAX_GRANT_NOTE } from '../../kits/protocol/grantLimits';
import { rpc } from './call';
import type { Call, WriteOutcome } from './types';

/** What a write to /server/grants takes: one command a line. */
const USAGE = '"new [ro|rw] [session NAME] [context NAME] [for DURATION] [name LABEL…]" or "revoke ID"';

export async function grantsRead(c: Call): Promise<Buffer> {
  if (c.fid?.issued !== undefined) return Buffer.from(`${c.fid.issued}\n`);
  const { grants } = await rpc(c, 'grant/list', {});
  return Buffer.from(grants.map((g) => `${JSON.stringify(g)}\n`).join(''));
}

export async function grantsWrite(c: Call, data: Buffer): Promise<WriteOutcome> {
  for (const line of data.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean)) {
    const [verb, ...words] = line.split(/\s+/);
    if (verb === 'revoke' && words.length === 1) {
      await rpc(c, 'grant/revoke', { id: words[0]! });
      continue;
    }
    if (verb !== 'new') throw bad(`/server/grants takes ${USAGE}, not "${line.slice(0, 80)}"`);
    const made = await rpc(c, 'grant/create', newParams(words));
    if (c.fid) {
      c.fid.issued = JSON.stringify(made);
      delete c.fid.content;
    }
  }
  return {};
}

function newParams(words: string[]): { mode: 'ro' | 'rw'; session?: string; context?: string; ttlMs?: number; note?: string } {
  const out: { mode: 'ro' | 'rw'; session?: string; context?: string; ttlMs?: number; note?: string } = { mode: 'ro' };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'ro' || w === 'rw') out.mode = w;
    else if (w === 'session' && words[i + 1] !== undefined) out.session = words[++i]!;
    else if (w === 'context' && words[i + 1] !== undefined) out.context = words[++i]!;
    else if (w === 'for' && words[i + 1] !== undefined) {
      const ms = grantDuration(words[++i]!);
      if (typeof ms === 'string') throw bad(`for: ${ms}`);
      out.ttlMs = ms;
    } else if (w === 'name' && i + 1 < words.length) {
      out.note = words.slice(i + 1).join(' ').slice(0, MAX_GRANT_NOTE);
      break;
    } else throw bad(`new: "${w.slice(0, 40)}" is not ro, rw, session NAME, context NAME, for DURATION or name LABEL`);
  }
  return out;
}

const bad = (why: string) => new PaneFault('bad-request', why, { subject: '/server/grants' });
