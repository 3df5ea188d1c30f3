/**
 * Vite plugin: the CORS proxy inside `vite` (dev) and `vite preview`, local mode, same origin as the
 * SPA. Mounted without a path prefix (connect would strip it); the adapter matches /proxy itself.
 */
import type { Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createNodeProxy, type NodeProxy, type NodeProxyOptions } from './node.js';

export function a2aProxyPlugin(options: Partial<NodeProxyOptions> = {}): Plugin {
  const proxies: NodeProxy[] = [];
  const mount = (server: ViteDevServer | PreviewServer, allowedHosts: string[] | true | undefined) => {
    const proxy = createNodeProxy({
      mode: 'local',
      ...options,
      // Names the user already allowed for Vite (`server.allowedHosts`) are accepted by the proxy too.
      allowedHosts: [...(options.allowedHosts ?? []), ...(Array.isArray(allowedHosts) ? allowedHosts : [])],
    });
    proxies.push(proxy);
    server.middlewares.use((req, res, next) => {
      proxy(req, res).then(
        (handled) => {
          if (!handled) next();
        },
        (e: unknown) => next(e),
      );
    });
    server.httpServer?.once('close', () => proxy.close());
  };
  return {
    name: 'a2a-interop-proxy',
    configureServer(server) {
      mount(server, server.config.server.allowedHosts);
    },
    configurePreviewServer(server) {
      mount(server, server.config.preview.allowedHosts);
    },
  };
}
