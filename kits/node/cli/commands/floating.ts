// `pane float`: the floating layer of the runtime contract behind one command —
// toggle tiled/floating, place and size, raise/lower, z, layer, show/hide.
import type { PaneRef } from '../../../protocol/ids';
import { bool, int, str } from '../args';
import { TARGET, type CommandSpec } from '../command';
import { OpError, UsageError } from '../errors';
import type { Connection } from '../../../client/connection';

const cell = (name: string, doc: string) => ({ name, type: 'int', value: 'N', min: 0, max: 65535, doc, conflicts: ['tile'] }) as const;

export const floatCommands: CommandSpec[] = [
  {
    command: 'float',
    summary: 'move a pane between tiling and the floating layer, or arrange a floating pane',
    flags: [
      TARGET,
      cell('x', 'left edge, in cells'),
      cell('y', 'top edge, in cells'),
      { ...cell('w', 'width, in cells'), min: 1 },
      { ...cell('h', 'height, in cells'), min: 1 },
      { name: 'tile', type: 'bool', doc: 'put a floating pane back into the tiling' },
      { name: 'raise', type: 'bool', doc: 'above the others in its layer', conflicts: ['lower', 'tile'] },
      { name: 'lower', type: 'bool', doc: 'below the others in its layer', conflicts: ['tile'] },
      { name: 'z', type: 'int', value: 'Z', doc: 'set its z order', conflicts: ['tile'] },
      { name: 'layer', type: 'string', value: 'L', doc: 'move it to a named layer', conflicts: ['tile'] },
      { name: 'hide', type: 'bool', doc: 'hide it (it keeps running)', conflicts: ['show', 'tile'] },
      { name: 'show', type: 'bool', doc: 'show it again', conflicts: ['tile'] },
    ],
    notes: [
      'With no flags it toggles: a tiled pane floats, a floating one goes back into the tiling.',
      'With --x/--y/--w/--h a tiled pane floats at that rectangle; a floating one moves and resizes.',
    ],
    async run(ctx, a) {
      const c = await ctx.connect();
      const target = ctx.target(a);
      const geo = { x: int(a, 'x'), y: int(a, 'y'), w: int(a, 'w'), h: int(a, 'h') };
      const hasGeo = Object.values(geo).some((v) => v !== undefined);
      const arranging = bool(a, 'raise') || bool(a, 'lower') || int(a, 'z') !== undefined || str(a, 'layer') !== undefined || bool(a, 'hide') || bool(a, 'show');
      const aim = target === undefined ? {} : { pane: target };
      if (bool(a, 'tile')) {
        await c.call('pane/float', { ...aim, mode: 'tile' });
        return 0;
      }
      if (!hasGeo && !arranging) {
        await c.call('pane/float', { ...aim, mode: 'toggle' });
        return 0;
      }
      // Where is it now? The float/* calls need a concrete pane and its current rect.
      const pane = await c.call('pane/get', { pane: target ?? (await focusedPane(c)) });
      const session = await c.call('session/get', { session: pane.session });
      let rect = session.floating.find((f) => f.pane === pane.n);
      const ref: PaneRef = pane.host === c.host ? pane.n : `${pane.host}:${pane.n}`;
      if (!rect) {
        if (!hasGeo) throw new UsageError(`pane ${ref} is not floating; float it first (pane float -t ${ref})`, 'float');
        await c.call('pane/float', { pane: ref, mode: 'float', ...definedOnly(geo) });
      } else {
        if (geo.x !== undefined || geo.y !== undefined) rect = (await c.call('float/move', { pane: ref, x: geo.x ?? rect.x, y: geo.y ?? rect.y })).rect;
        if (geo.w !== undefined || geo.h !== undefined) rect = (await c.call('float/resize', { pane: ref, w: geo.w ?? rect.w, h: geo.h ?? rect.h })).rect;
      }
      if (bool(a, 'raise')) await c.call('float/raise', { pane: ref });
      if (bool(a, 'lower')) await c.call('float/lower', { pane: ref });
      if (int(a, 'z') !== undefined) await c.call('float/z', { pane: ref, z: int(a, 'z') as number });
      if (str(a, 'layer') !== undefined) await c.call('float/layer', { pane: ref, layer: str(a, 'layer') as string });
      if (bool(a, 'hide') || bool(a, 'show')) await c.call('float/visible', { pane: ref, visible: bool(a, 'show') });
      return 0;
    },
  },
];

function definedOnly<T extends Record<string, number | undefined>>(o: T): Partial<Record<keyof T, number>> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<Record<keyof T, number>>;
}

/** The focused pane of the default session, for calls that need a concrete pane. */
async function focusedPane(c: Connection): Promise<number> {
  const s = await c.call('session/get', {});
  if (s.focused === null) throw new OpError(`session ${s.name} has no focused pane; pass -t ID`);
  return s.focused;
}
