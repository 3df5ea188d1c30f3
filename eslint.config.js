// ESLint flat config. `npm run lint` runs it with --max-warnings 0, then `prettier --check`.
// Layers and what each may import: CONTRIBUTING.md and docs/architecture.md. src/boundaries.test.ts checks the same
// boundaries with a plain import scan (packages allowed per layer, browser globals), so a rule lost here still fails a test.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Browser globals the engine and the proxy handler must not touch (they run in Node and Workers too). */
const BROWSER_GLOBALS = ['window', 'document', 'localStorage', 'sessionStorage', 'indexedDB', 'navigator'].map((name) => ({
  name,
  message: 'src/engine is pure: receive what you need through the host port (src/engine/ports.ts).',
}));

const UI_PACKAGES = ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@tanstack/*', 'recharts', 'idb'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-*/**',
      'node_modules/**',
      'coverage/**',
      'reports/**',
      'test-results/**',
      'playwright-report/**',
      '.stryker-tmp/**',
      '.wrangler/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc (noUnusedLocals/Parameters) reports these already; keep lint about what tsc cannot see.
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // A `let` declared before a closure that reads it and assigned once later stays a `let` (const would be in its TDZ).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      // A feature never imports another feature: src/app composes them (src/app/README.md).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...FEATURES.map((name) => ({
              target: `./src/features/${name}`,
              from: './src/features',
              except: [`./${name}`],
              message: 'Features never import one another: move the shared piece to src/lib or src/components, or compose in src/app.',
            })),
            { target: ['./src/features', './src/lib', './src/components'], from: './src/app', message: 'src/app composes the UI; nothing imports it.' },
            { target: ['./src/lib', './src/components'], from: './src/features', message: 'Shared UI layers never import a feature.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/app/**', 'src/features/**', 'src/components/**', 'src/lib/**'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'src/engine is pure: no node: modules (it runs in browsers and Workers).' },
            { group: UI_PACKAGES, message: 'src/engine is pure: no React, stores or UI libraries.' },
            { group: ['**/lib/*', '**/features/*', '**/app/*', '**/components/*', '**/hosts/*', '**/cli/*'], message: 'src/engine imports only itself.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
    },
  },
  {
    files: ['src/exporters/**/*.ts'],
    ignores: ['src/exporters/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Exporters are pure functions over a report.' },
            { group: UI_PACKAGES, message: 'Exporters are pure functions over a report.' },
          ],
        },
      ],
    },
  },
  {
    // Tests may reach for what they need to assert on.
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
