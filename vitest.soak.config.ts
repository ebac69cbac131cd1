// The soak tier: long runs under load (busy loops taking the cores, floods of tens
// of MB, a hundred rounds) that would starve the main suite's other tests were
// they to run beside them. `npm test` runs this after the main suite, one file
// at a time, and sums both in its last line.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The soaks make their own load; a second file beside one would be load the soak did not choose.
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});
