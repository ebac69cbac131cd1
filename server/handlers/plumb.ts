// plumb/send, plumb/test, plumb/rules: the plumber (server/plumb/service.ts), as
// the caller. A rule's action that cannot be done (a value that would be read as
// an option, a file that is gone, a launch the caller's .access refuses) is a
// `failed` error naming the rule; the other rules and the server keep serving.
import { PaneFault, faults } from '../../kits/protocol/error';
import { dataPattern, describeActions } from '../plumb/rules';
import { seesFor } from '../plumb/service';
import type { HandlerTable } from './types';

export const plumbHandlers: HandlerTable = {
  'plumb/send': async (p, ctx) => {
    try {
      return await ctx.services.plumb.plumb(p, ctx, false);
    } catch (e) {
      if (e instanceof PaneFault) throw e;
      throw faults.failed(`plumb: ${(e as Error).message}`);
    }
  },
  'plumb/test': (p, ctx) => ctx.services.plumb.plumb(p, ctx, true),
  'plumb/rules': (p, ctx) => {
    const source = p.pane !== undefined ? ctx.server.pane(p.pane) : undefined;
    const wdir = p.wdir ?? source?.cwd;
    const { rules, errors } = ctx.services.plumb.rulesFor(wdir, seesFor(ctx, wdir));
    return {
      rules: rules.map((r) => {
        const pattern = dataPattern(r);
        return { at: `${r.file}:${r.line}`, origin: r.origin, ...(pattern !== undefined ? { pattern } : {}), does: describeActions(r) };
      }),
      errors,
      ports: ctx.services.plumb.portList(rules),
    };
  },
};
