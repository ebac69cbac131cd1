// state/*: the snapshot generations the daemon keeps, a snapshot on demand, and going
// back to one (its sessions recreated beside the current ones, so nothing live is lost).
import { faults } from '../../kits/protocol/error';
import type { Persistence } from '../persist/service';
import { resurrect } from '../persist/resurrect';
import type { Services } from '../services';
import type { HandlerTable } from './types';

function need(services: Services): Persistence {
  const p = services.persistence;
  if (!p) throw faults.failed('this server keeps no state: the daemon (`npm start`, `pane start`) does, and `pane serve --state DIR`');
  return p;
}

export const stateHandlers: HandlerTable = {
  'state/generations': (_p, { services }) => {
    const p = services.persistence;
    return { dir: p?.dir ?? null, generations: p?.store.list() ?? [] };
  },
  'state/save': async (_p, { services }) => need(services).snapshot(),
  'state/restore': async (params, { services }) => {
    const p = need(services);
    const gens = p.store.list();
    const pick =
      params.gen !== undefined
        ? gens.find((g) => g.gen === params.gen)
        : params.at !== undefined
          ? gens.find((g) => g.savedAt <= params.at!)
          : gens[0];
    if (!pick) {
      const what = params.gen !== undefined ? `generation ${params.gen}` : params.at !== undefined ? `a generation saved at or before ${new Date(params.at).toISOString()}` : 'a generation';
      throw faults.failed(`no ${what} is kept (kept: ${gens.map((g) => g.gen).join(', ') || 'none'}); see pane restore --list`);
    }
    let read;
    try {
      read = p.store.read(pick.gen);
    } catch (e) {
      throw faults.failed((e as Error).message);
    }
    if (!read) throw faults.failed(`generation ${pick.gen} is damaged and was set aside; pick another (pane restore --list)`);
    const sessions = await resurrect(p.deps, read.state, { dir: p.dir, config: p.config, keepIds: false }, p.warn);
    return { gen: pick.gen, sessions: sessions.map((s) => ({ session: s.id, name: s.name })) };
  },
};
