// The floating layer of the runtime contract: create, move, resize, focus,
// raise, lower, set z, set layer, close.
import { z } from 'zod';
import { PaneRefSchema, SessionRefSchema } from './ids';
import { FloatingSchema } from './model';
import { method } from './method';
import { NewPaneSpecSchema } from './pane';
import { lazySchema } from './lazySchema';

export const FloatAckSchema = lazySchema(() => z.object({
  session: z.string().uuid(),
  pane: z.number().int().positive(),
  id: z.string(),
  rect: FloatingSchema,
}));
export type FloatAck = z.infer<typeof FloatAckSchema>;

const cell = lazySchema(() => z.number().int().min(0).max(65535));
const one = lazySchema(() => z.object({ pane: PaneRefSchema }));

export const floatingMethods = {
  'float/create': method({
    params: lazySchema(() => z.object({
      session: SessionRefSchema.optional(),
      x: cell.optional(),
      y: cell.optional(),
      w: cell.min(1).optional(),
      h: cell.min(1).optional(),
      z: z.number().int().optional(),
      layer: z.string().min(1).max(64).optional(),
      ...NewPaneSpecSchema.shape,
    })),
    result: FloatAckSchema,
    cap: 'write',
    doc: 'Creates a floating pane.',
  }),
  'float/move': method({ params: lazySchema(() => one.extend({ x: cell, y: cell })), result: FloatAckSchema, cap: 'write', doc: 'Moves a floating pane.' }),
  'float/resize': method({
    params: lazySchema(() => one.extend({ w: cell.min(1), h: cell.min(1) })),
    result: FloatAckSchema,
    cap: 'write',
    doc: 'Resizes a floating pane.',
  }),
  'float/focus': method({ params: one, result: FloatAckSchema, cap: 'write', doc: 'Focuses and raises a floating pane.' }),
  'float/raise': method({ params: one, result: FloatAckSchema, cap: 'write', doc: 'Puts a floating pane above the others in its layer.' }),
  'float/lower': method({ params: one, result: FloatAckSchema, cap: 'write', doc: 'Puts a floating pane below the others in its layer.' }),
  'float/z': method({ params: lazySchema(() => one.extend({ z: z.number().int() })), result: FloatAckSchema, cap: 'write', doc: 'Sets a floating pane’s z.' }),
  'float/layer': method({
    params: lazySchema(() => one.extend({ layer: z.string().min(1).max(64) })),
    result: FloatAckSchema,
    cap: 'write',
    doc: 'Moves a floating pane to a named layer.',
  }),
  'float/visible': method({
    params: lazySchema(() => one.extend({ visible: z.boolean() })),
    result: FloatAckSchema,
    cap: 'write',
    doc: 'Shows or hides a floating pane.',
  }),
  'float/close': method({ params: one, result: FloatAckSchema, cap: 'write', doc: 'Closes a floating pane and its process.' }),
};
