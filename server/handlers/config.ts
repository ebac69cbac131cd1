// Config handlers: the app files the launcher lists and launches, and the keymap
// and settings in force. The files themselves are read and watched by server/config/.
import { PaneFault } from '../../kits/protocol/error';
import type { PaneAck } from '../../kits/protocol/pane';
import { installHint } from '../../kits/protocol/app';
import type { HandlerTable } from './types';
import { setVocabulary } from '../model/paneOps';
import { vocabularyWithApp } from '../model/appWords';

export const configHandlers: HandlerTable = {
  'keymap/get': (_p, { services }) => services.config.keymap,

  'settings/get': (_p, { services }) => services.config.settings,

  'apps/list': (_p, { services }) => services.config.recheckInstalled(),

  'apps/launch': async (p, ctx) => {
    const app = ctx.services.config.findApp(p.app);
    const list = ctx.services.config.apps;
    if (!app) {
      const known = list.apps.map((a) => a.id).join(', ') || 'none';
      throw new PaneFault('failed', `no app "${p.app}" (known: ${known})`, { reason: 'no such app', subject: p.app });
    }
    if (app.installed === false && ctx.services.config.recheckInstalled().apps.find((a) => a.id === app.id)?.installed === false) {
      throw new PaneFault('failed', `${app.name} is not installed (${app.launch?.program} is not on PATH): ${installHint(app, process.versions.node)}`, { reason: 'not installed', subject: app.id });
    }
    const launch = app.launch ? { ...app.launch, ...(app.launch.cwd === undefined && p.cwd !== undefined ? { cwd: p.cwd } : {}) } : undefined;
    const spec = {
      ...(launch ? { launch } : {}),
      name: app.name,
      signature: app.signature,
      kind: app.kind,
      attrs: { ...(app.attrs ?? {}), app: app.id },
    };
    // Through the one dispatch path, so the split gets the same checks as any request.
    // Launched "at the focused position": beside a tiled pane, or floating above when that pane floats.
    const anchor = p.pane !== undefined ? ctx.server.pane(p.pane) : undefined;
    const anchorFloats = anchor !== undefined && ctx.server.sessionOf(anchor).floating.some((f) => f.pane === anchor.n);
    let ack: PaneAck;
    if (app.placement === 'float' || anchorFloats) {
      const session = anchor?.session ?? p.session;
      const r = await ctx.dispatch('float/create', { ...(session !== undefined ? { session } : {}), ...spec });
      ack = { session: r.session, pane: r.pane, id: r.id };
    } else {
      const target = p.pane !== undefined ? { pane: p.pane } : p.session !== undefined ? { session: p.session } : {};
      ack = await ctx.dispatch('pane/split', { ...target, direction: p.direction ?? 'horizontal', ...spec });
    }
    if (app.tag) await ctx.dispatch('pane/tag', { pane: ack.pane, user: app.tag });
    // Its app's words join its vocabulary (tag, palette, /pane/N/commands, pane exec, MCP).
    if (app.commands?.length) {
      const pane = ctx.server.panes.get(ack.pane);
      if (pane) setVocabulary(ctx.server, pane, vocabularyWithApp(pane.kind, app));
    }
    return ack;
  },
};
