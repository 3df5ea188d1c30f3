#!/usr/bin/env node
// Development entry of the `a2a-interop` command: runs the TypeScript source through tsx (a dev
// dependency), so tests and `node src/cli/bin.mjs ...` in a checkout need no build. The package's
// command is dist-cli/bin.mjs, the esbuild bundle from scripts/build-cli.mjs (`npm run build`, `npm pack`).
import { tsImport } from 'tsx/esm/api';

await tsImport('./main.ts', import.meta.url);
