// The C library's own calls that Node has no call for (malloc_trim, getsockopt),
// reached through koffi: an FFI with prebuilt binaries, an optional dependency
// (decision 051). Loaded once, the first time a caller needs it, never at start.
import { createRequire } from 'node:module';

/** One C function bound to JavaScript. */
export type CFunction = (...args: unknown[]) => unknown;

/** The parts of koffi used here (its own types are not needed for a few calls). */
interface Koffi {
  load(lib: string): { func(signature: string): CFunction };
}

export interface Libc {
  /** A libc function by its C prototype, e.g. `int malloc_trim(size_t pad)`; throws when libc has none. */
  func(signature: string): CFunction;
}

let loaded: Libc | string | undefined;

/** glibc, or why it cannot be reached here (not Linux, koffi not installed, another C library). */
export function loadLibc(): Libc | string {
  loaded ??= open();
  return loaded;
}

function open(): Libc | string {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  let koffi: Koffi;
  try {
    // Loaded at run time and kept out of the bundle: a native addon and an optional dependency.
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (e) {
    return `koffi did not load (${(e as Error).message.split('\n')[0]})`;
  }
  try {
    // musl and other C libraries have no libc.so.6.
    const lib = koffi.load('libc.so.6');
    return { func: (signature) => lib.func(signature) };
  } catch (e) {
    return `no glibc here (${(e as Error).message.split('\n')[0]})`;
  }
}
