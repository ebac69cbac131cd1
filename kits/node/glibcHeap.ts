// glibc's allocator, reached through koffi: malloc_trim (decision 051) and mallopt.
// glibc gives back to the system only the free top of its heap; pages of free chunks
// below a live one stay resident until malloc_trim walks the heap and releases them.
// Node has no call for either.
import { loadLibc } from './libc';

export interface GlibcHeap {
  /** malloc_trim(0): every arena's free pages given back; true when any were. */
  trim(): boolean;
  /** mallopt(param, value): true when glibc took the setting. */
  set(param: number, value: number): boolean;
}

/** glibc's allocator, or why it cannot be reached here (not Linux, not glibc, koffi not installed). */
export function loadGlibcHeap(): GlibcHeap | string {
  const libc = loadLibc();
  if (typeof libc === 'string') return libc;
  try {
    // musl gives memory back by itself, and has no libc.so.6 to get here.
    const trim = libc.func('int malloc_trim(size_t pad)');
    const mallopt = libc.func('int mallopt(int param, int value)');
    return { trim: () => trim(0) === 1, set: (param, value) => mallopt(param, value) === 1 };
  } catch (e) {
    return `no glibc malloc_trim here (${(e as Error).message.split('\n')[0]})`;
  }
}

/**
 * mallopt's parameter for each of glibc's MALLOC_*_ variables (glibc's malloc.h):
 * the same setting, made from inside the process instead of read at its start.
 */
export const MALLOPT_PARAM: Readonly<Record<string, number>> = {
  MALLOC_TRIM_THRESHOLD_: -1, // M_TRIM_THRESHOLD
  MALLOC_MMAP_THRESHOLD_: -3, // M_MMAP_THRESHOLD
  MALLOC_ARENA_MAX: -8, // M_ARENA_MAX
};

/**
 * Makes `settings` (MALLOC_* names → values) through mallopt, for a process whose
 * environment did not carry them when it started (glibc reads them only then).
 * Taken from here on: a threshold set this way is fixed from now, as the variable
 * fixes it from the start; an arena cap applies to the arenas not made yet.
 * Returns the names glibc took, or why none could be set.
 */
export function applyMallocSettings(settings: Readonly<Record<string, string>>, heap: GlibcHeap | string = loadGlibcHeap()): string[] | string {
  if (typeof heap === 'string') return heap;
  const taken: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    const param = MALLOPT_PARAM[name];
    if (param === undefined) throw new Error(`no mallopt parameter for ${name}`);
    if (!/^\d+$/.test(value)) throw new Error(`${name}=${value} is no count of bytes or arenas`);
    if (heap.set(param, Number(value))) taken.push(name);
  }
  return taken;
}
