// The Node-line smoke tier (issue 34: the Node people run): `npm test` runs these
// again on Node 24, installed from npm (scripts/nodeLines.mjs), after the main suite
// ran them on the system Node: the npm package installed and used, `npm start`'s
// cold start, and the agent CLIs at their latest (whose newest releases need
// Node ≥ 22), typed to as a person does. test/nodeLine/ checks the tier really runs
// on that Node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/nodeLine/**/*.test.ts', 'test/install/installed.test.ts', 'test/e2e/coldStart.test.ts', 'test/agents/claude.test.ts', 'test/agents/qwen.test.ts', 'test/agents/gemini.test.ts', 'test/agents/codex.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
