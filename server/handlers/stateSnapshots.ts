// state/*: the snapshot generations the daemon keeps, a snapshot on demand, and going
// back to one (its sessions recreated beside the current ones, so nothing live is lost).
import { localTime } from '../../kits/node/localTime';
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
      // Said as the list says it: local times to the minute (the time asked for is the end of its minute).
      const what = params.gen !== undefined ? `generation ${params.gen}` : params.at !== undefined ? `generation saved at or before ${localTime(params.at, 'minute')}` : 'generation';
      const oldest = gens.at(-1);
      const newest = gens[0];
      const kept = !oldest || !newest ? 'none is kept yet' : oldest === newest ? `the one kept is ${newest.gen}, saved ${localTime(newest.savedAt, 'minute')}` : `kept: ${oldest.gen} (saved ${localTime(oldest.savedAt, 'minute')}) to ${newest.gen} (${localTime(newest.savedAt, 'minute')})`;
      throw faults.failed(`no ${what} is kept; ${kept}; see pane restore --list`);
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
