// glibc's malloc_trim, reached through koffi (an FFI with prebuilt binaries, an
// optional dependency: decision 051). glibc gives back to the system only the free
// top of its heap; pages of free chunks below a live one stay resident until
// malloc_trim walks the heap and releases them. Node has no call for it.
import { createRequire } from 'node:module';

/** The parts of koffi used here (its own types are not needed for two calls). */
interface Koffi {
  load(lib: string): { func(signature: string): (...args: unknown[]) => unknown };
}

export interface GlibcHeap {
  /** malloc_trim(0): every arena's free pages given back; true when any were. */
  trim(): boolean;
}

/** glibc's allocator, or why it cannot be reached here (not Linux, not glibc, koffi not installed). */
export function loadGlibcHeap(): GlibcHeap | string {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  let koffi: Koffi;
  try {
    // Loaded at run time and kept out of the bundle: a native addon and an optional dependency.
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (e) {
    return `koffi did not load (${(e as Error).message.split('\n')[0]})`;
  }
  try {
    // musl and other C libraries have no libc.so.6; musl gives memory back by itself.
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return { trim: () => trim(0) === 1 };
  } catch (e) {
    return `no glibc malloc_trim here (${(e as Error).message.split('\n')[0]})`;
  }
}
