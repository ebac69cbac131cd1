// One test runner for every layer: unit tests beside the source, cross-module
// and end-to-end tests under test/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['kits/**/*.test.ts', 'server/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'electron/**/*.test.ts', 'test/**/*.test.ts'],
    // test/soak/ and test/nodeLine/ are tiers of their own (vitest.soak.config.ts, vitest.nodeLine.config.ts), run after these by `npm test`.
    exclude: ['node_modules/**', 'dist/**', 'test/soak/**', 'test/nodeLine/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores here: PTY and browser tests fight for them, so keep parallelism modest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
