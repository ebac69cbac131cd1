// A protocol schema built the first time anything touches it, not when its module
// is evaluated. Building every zod schema of the protocol (~2,900 of them) took
// 45-80 ms of a cold window's main thread before its first frame, and ~50 ms of the
// daemon's start while the browser starts beside it (decision 056); a window or a
// daemon uses a fraction of them in its first second.
import { z } from 'zod';

/**
 * `make()`'s schema, as an object that stands for it from the start: before the
 * first use it is an empty object whose prototype is a trap, and any property read
 * (`parse`, `shape`, `_zod` when zod reads it as another schema's part), `in` test
 * or write runs `make()` once and makes this very object a schema by the same
 * constructor from the same definition, so its parts are the ones `make()` built
 * and zod's internals are its own. After that the trap is out of the prototype
 * chain: reads are plain property reads, `instanceof` and zod's traits see a schema
 * of the right kind, and `extend`, `optional` or `toJSONSchema` act on it as on any
 * schema. Metadata registered for `make()`'s schema (`.describe`, `.meta`) is
 * registered for it too.
 *
 * Only what `make()` builds is deferred: a schema it reads (another lazySchema)
 * is built when it is, and a module's top-level code that reads a schema (a `.shape`
 * spread into a plain object, `.options`) builds that one at load, as before.
 */
export function lazySchema<T extends object>(make: () => T): T {
  const stand = {} as T;
  // Dropped once built: the thunk, and the schema it made (only its parts live on, in `stand`).
  let pending: (() => T) | null = make;
  const build = (): void => {
    if (pending === null) return;
    const made = pending();
    pending = null;
    // The object handed out becomes a schema of its own, made by the same constructor from
    // the same definition (its parts are the ones make() built): zod's internals close over
    // the instance they were made for, so a copy of `made` would be two schemas to them
    // (toJSONSchema looked the copy up and found nothing).
    const zod = (made as unknown as { _zod: { constr: (this: object, def: unknown) => object; def: unknown } })._zod;
    Object.setPrototypeOf(stand, Object.getPrototypeOf(made));
    zod.constr.call(stand, zod.def);
    const meta = z.globalRegistry.get(made as unknown as z.ZodType);
    if (meta !== undefined) z.globalRegistry.add(stand as unknown as z.ZodType, meta);
  };
  const trap = new Proxy(Object.create(null) as object, {
    get(_t, key) {
      build();
      return Reflect.get(stand, key, stand);
    },
    has(_t, key) {
      build();
      return key in stand;
    },
    set(_t, key, value) {
      build();
      return Reflect.set(stand, key, value, stand);
    },
  });
  Object.setPrototypeOf(stand, trap);
  return stand;
}
