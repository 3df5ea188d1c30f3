/**
 * The Vite plugin mounts the proxy in the dev server and in `vite preview`, without a path prefix:
 * /proxy is the proxy, everything else is still Vite's.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { type Recorder, startUpstream } from './node-testing';
import { a2aProxyPlugin } from './vite-plugin';

let root: string;
let agent: Recorder;
let dev: ViteDevServer;
let prev: PreviewServer;

const portOf = (s: { httpServer: unknown }) => (s.httpServer as { address(): AddressInfo }).address().port;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'a2a-vite-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>spa</title><div id="root"></div>');
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><title>built spa</title>');
  agent = await startUpstream((req, res) => res.end(`agent saw ${req.method} ${req.url}`));
  const common = { configFile: false as const, root, logLevel: 'silent' as const, plugins: [a2aProxyPlugin()] };
  dev = await createServer({ ...common, server: { host: '127.0.0.1', port: 0, strictPort: false, ws: false } });
  await dev.listen();
  prev = await preview({ ...common, build: { outDir: join(root, 'dist') }, preview: { host: '127.0.0.1', port: 0 } });
}, 60_000);

afterAll(async () => {
  await dev?.close();
  await new Promise<void>((r) => (prev ? prev.httpServer.close(() => r()) : r()));
  await agent?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a2aProxyPlugin', () => {
  for (const [name, server] of [
    ['dev server', () => dev],
    ['preview server', () => prev],
  ] as const) {
    it(`serves /proxy in the ${name} and leaves other paths to Vite`, async () => {
      const origin = `http://127.0.0.1:${portOf(server())}`;
      const health = await fetch(`${origin}/proxy/health`);
      expect(await health.json()).toEqual({ ok: true, mode: 'local', version: expect.any(String) });

      const res = await fetch(`${origin}/proxy?url=${encodeURIComponent(agent.url('/a2a'))}`, {
        method: 'POST',
        body: '{}',
        headers: { 'x-a2a-interop': '1' },
      });
      expect(res.headers.get('x-proxy-upstream-status')).toBe('200');
      expect(await res.text()).toBe('agent saw POST /a2a');

      const refused = await fetch(`${origin}/proxy?url=${encodeURIComponent(agent.url('/'))}`, {
        headers: { 'x-a2a-interop': '1', origin: 'https://evil.example' },
      });
      expect(refused.headers.get('x-proxy-error')).toBe('origin_not_allowed');

      const page = await fetch(`${origin}/`);
      expect(page.headers.get('x-proxy-error')).toBeNull();
      expect(await page.text()).toContain('spa');
    });
  }
});
