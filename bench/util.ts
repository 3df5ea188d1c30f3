/** Helpers shared by the network benches (proxy.bench.ts, tap.bench.ts). */
import http from 'node:http';
import { quantile as q } from '../src/engine/util/stats';

/** Nearest-rank p-quantile (0..1), the engine's own (src/engine/util/stats.ts); NaN when nothing was measured. */
export const quantile = (values: readonly number[], p: number): number => q(values, p) ?? NaN;

/** One POST on a kept-alive agent; resolves when the whole answer is read, rejects on a status other than 200. */
export function post(agent: http.Agent, port: number, path: string, body: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
