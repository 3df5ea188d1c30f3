// @ts-check
/**
 * Mutation testing of the checks and the level rules (`npm run mutation`): Stryker changes the code one small
 * way at a time and runs the fast unit tests (vitest.mutation.config.ts) against each change; a mutant that
 * no test notices is a gap. The score and the survivors are printed; docs/mutation.md explains the survivors.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src/engine/report/level.ts', 'src/engine/checks/**/*.ts', '!src/engine/checks/**/*.test.ts', '!src/engine/checks/**/index.ts'],
  coverageAnalysis: 'perTest',
  // Message wording is pinned by the golden and unit tests where it matters; mutating every string literal
  // (thousands in the checks) would drown the logic mutants. MUTATE_STRINGS=1 brings them back.
  mutator: { excludedMutations: process.env.MUTATE_STRINGS === '1' ? [] : ['StringLiteral'] },
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  // Build and e2e outputs change under a running Playwright or vite build; they are not inputs of the unit tests.
  ignorePatterns: ['/test-results', '/dist', '/playwright-report', '/reports', '/.stryker-tmp'],
  cleanTempDir: 'always',
};
