import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT || 4179);
// The app server: `npm start`'s server (SPA + proxy + demo agents) when it exists, else Vite's
// preview of dist/ (SPA only; specs that need agents are marked fixme until then).
const appServer = existsSync(join(root, 'src/server/main.ts')) ? `npx tsx src/server/main.ts` : `npx vite preview --port ${port} --strictPort`;

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One worker unless E2E_WORKERS says otherwise. Two measured faster for the e2e suite alone on the 2-core machine
  // under other load (548 s against 742 s for one, back to back at load 6-9, all 104 pass), but in `npm test` the unit
  // suite runs beside it and may be the longer lane: switch only after timing both lanes together (scripts/test-all.mjs).
  workers: Number(process.env.E2E_WORKERS) || 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  webServer: {
    command: appServer,
    cwd: root,
    url: `http://127.0.0.1:${port}/`,
    // DEMO_GRPC=1: the v1.0 demo agent also serves gRPC (console-grpc.spec.ts drives the console over it). Its cost is
    // loading @grpc/grpc-js and the SDK's gRPC server at startup: 0.2-0.6 s measured at load 11 on the 2-core machine;
    // spawn to the v1 card answering, 9 starts each, median 4.8 s with it and 4.4 s without (spread about ±1 s either
    // way). A CLI run of the v1 demo gives the same 93 verdicts with and without it (JSON-RPC stays preferred).
    env: { PORT: String(port), HOST: '127.0.0.1', DEMO_GRPC: '1' },
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    acceptDownloads: true,
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
});
