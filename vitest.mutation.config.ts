/**
 * The tests `npm run mutation` (StrykerJS) runs against each mutant: the fast unit tests of the checks and the
 * level rules (scripted agents and fake hosts, no browser), not the whole suite, so a mutant takes seconds.
 * The integration matrices (matrix.test.ts, sdk-agents.test.ts) kill more but take minutes per mutant.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // MUTATION_TESTS=a.test.ts,b.test.ts narrows the set (e.g. npm run mutation:level runs only the level tests).
    include: process.env.MUTATION_TESTS?.split(',') ?? [
      'src/engine/report/level.test.ts',
      'src/engine/checks/card.test.ts',
      'src/engine/checks/lifecycle.test.ts',
      'src/engine/checks/streaming.test.ts',
      'src/engine/checks/errors.test.ts',
      'src/engine/checks/interop.test.ts',
      'src/engine/checks/spec-coverage.test.ts',
      'src/engine/checks/preconditions.test.ts',
      'src/engine/checks/setups/tasks.test.ts',
      'src/engine/checks/mutation-guards.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
