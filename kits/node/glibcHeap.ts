// glibc's malloc_trim (decision 051). glibc gives back to the system only the free
// top of its heap; pages of free chunks below a live one stay resident until
// malloc_trim walks the heap and releases them. Node has no call for it.
import { loadLibc } from './libc';

export interface GlibcHeap {
  /** malloc_trim(0): every arena's free pages given back; true when any were. */
  trim(): boolean;
}

/** glibc's allocator, or why it cannot be reached here (not Linux, not glibc, koffi not installed). */
export function loadGlibcHeap(): GlibcHeap | string {
  const libc = loadLibc();
  if (typeof libc === 'string') return libc;
  try {
    // musl gives memory back by itself, and has no libc.so.6 to get here.
    const trim = libc.func('int malloc_trim(size_t pad)');
    return { trim: () => trim(0) === 1 };
  } catch (e) {
    return `no glibc malloc_trim here (${(e as Error).message.split('\n')[0]})`;
  }
}
