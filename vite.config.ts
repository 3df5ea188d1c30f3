import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { a2aProxyPlugin } from './src/proxy/vite-plugin.js';

export default defineConfig({
  plugins: [react(), a2aProxyPlugin()],
  // xmlbuilder2 (JUnit export) pulls Node's `url` for two IDNA helpers; the browser build gets a shim.
  resolve: process.env.VITEST ? {} : { alias: { url: fileURLToPath(new URL('./src/lib/node-url-shim.ts', import.meta.url)) } },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4174 },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers on two cores: most files wait on local agents and timers, not the CPU (one worker left a core idle
    // and doubled the run); the timing-dependent tests are built to hold under this load.
    maxWorkers: 2,
  },
});
