// Config handlers: the app files the launcher lists and launches, and the keymap
// and settings in force. The files themselves are read and watched by server/config/.
import { PaneFault } from '../../kits/protocol/error';
import type { PaneAck } from '../../kits/protocol/pane';
import { installHint } from '../../kits/protocol/app';
import type { HandlerTable } from './types';
import { setVocabulary } from '../model/paneOps';
import { vocabularyWithApp } from '../model/appWords';
import { isNoRoom } from '../model/session/index';

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
    const floated = async (): Promise<PaneAck> => {
      const session = anchor?.session ?? p.session;
      const r = await ctx.dispatch('float/create', { ...(session !== undefined ? { session } : {}), ...spec });
      return { session: r.session, pane: r.pane, id: r.id };
    };
    let ack: PaneAck;
    if (app.placement === 'float' || anchorFloats) ack = await floated();
    else {
      const target = p.pane !== undefined ? { pane: p.pane } : p.session !== undefined ? { session: p.session } : {};
      try {
        ack = await ctx.dispatch('pane/split', { ...target, direction: p.direction ?? 'horizontal', ...spec });
      } catch (e) {
        // Beside a pane too small to split, the app opens floating above it rather than not at all.
        if (!isNoRoom(e)) throw e;
        ack = await floated();
      }
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
