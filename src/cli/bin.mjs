#!/usr/bin/env node
// The package's `a2a-interop` command. Runs the TypeScript CLI through tsx (a dependency), so the
// installed command and the source never drift apart.
import { tsImport } from 'tsx/esm/api';

await tsImport('./main.ts', import.meta.url);
