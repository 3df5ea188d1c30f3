/**
 * A wire-controlled A2A test agent on raw node:http with switchable defects. With no defects it is a
 * spec-correct agent for its generation and binding; each defect breaks exactly one behaviour.
 *
 * @example
 * const agent = await startDefectAgent({ generation: 'v1.0', defects: ['sse-no-final'] });
 * const card = await (await fetch(agent.cardUrl)).json();
 * await agent.close();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DefectName } from './defects';
import type { PermittedName } from './permitted';
import { createDefectAgentHandler, type Binding, type DefectAgentOptions, type RecordedRequest } from './handler';

export { DEFECTS, DEFECT_NAMES, type DefectName } from './defects';
export { PERMITTED_NAMES, type PermittedName } from './permitted';
export { createDefectAgentHandler, type Binding, type Generation, type RecordedRequest } from './handler';
export { behaviourFor, behaviourDelays, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, type Behaviour } from './skills';

/** The bindings the test agent speaks: JSON-RPC and HTTP+JSON natively, gRPC (v1.0) through a front (grpc.ts). */
export type AgentBinding = Binding | 'GRPC';

export interface StartDefectAgentOptions extends Omit<DefectAgentOptions, 'binding'> {
  /** GRPC (v1.0 only): a gRPC server on its own port in front of the agent's JSON-RPC endpoint, declared by the card. */
  binding?: AgentBinding;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
}

export interface RunningDefectAgent {
  /** The agent endpoint: JSON-RPC URL, REST base URL, or gRPC `host:port`. */
  url: string;
  /** The gRPC front (binding GRPC): the methods it was called with. */
  grpc?: { readonly calls: readonly string[] };
  /** Absolute URL of the public card. */
  cardUrl: string;
  setDefects(d: DefectName[]): void;
  setPermitted(p: PermittedName[]): void;
  /** Every request received, in order (method, path, headers, body). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startDefectAgent(opts: StartDefectAgentOptions): Promise<RunningDefectAgent> {
  if (opts.binding === 'GRPC') return startGrpcAgent(opts);
  return startHttpAgent({ ...opts, binding: opts.binding });
}

/**
 * The gRPC binding: the front is bound first (the card names its port), then the agent; the front forwards every call
 * to the agent's JSON-RPC endpoint and applies the defect grpc-bare-errors and the permitted grpc-v100-statuses and
 * grpc-error-details as the agent's switches say at each call.
 */
async function startGrpcAgent(opts: StartDefectAgentOptions): Promise<RunningDefectAgent> {
  if (opts.generation !== 'v1.0') throw new Error('the gRPC binding exists from v1.0');
  const { startGrpcFront } = await import('./grpc');
  let agent: RunningDefectAgent | undefined;
  let defects: readonly DefectName[] = opts.defects ?? [];
  let permitted: readonly PermittedName[] = opts.permitted ?? [];
  const front = await startGrpcFront({
    jsonRpcUrl: () => agent?.url ?? 'http://127.0.0.1:9/',
    variant: () =>
      defects.includes('grpc-bare-errors')
        ? 'bare-errors'
        : permitted.includes('grpc-v100-statuses')
          ? 'v100-statuses'
          : permitted.includes('grpc-error-details')
            ? 'error-details'
            : 'faithful',
  });
  try {
    agent = await startHttpAgent({ ...opts, binding: 'JSONRPC', features: { ...opts.features, grpcEndpoint: front.url } });
  } catch (e) {
    await front.close();
    throw e;
  }
  const http = agent;
  return {
    ...http,
    url: front.url,
    grpc: front,
    setDefects: (d) => {
      http.setDefects(d);
      defects = [...d];
    },
    setPermitted: (p) => {
      http.setPermitted(p);
      permitted = [...p];
    },
    // The agent first: its streams end, and with them the calls the front relays them on.
    close: async () => {
      await http.close();
      await front.close();
    },
  };
}

async function startHttpAgent(opts: StartDefectAgentOptions & { binding?: Binding }): Promise<RunningDefectAgent> {
  const agent = createDefectAgentHandler({ ...opts, basePath: '' });
  const server: Server = createServer((req, res) => {
    if (!agent.handle(req, res)) res.writeHead(404).end();
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  agent.setPublicUrl(`http://127.0.0.1:${port}`);
  let closing: Promise<void> | undefined;
  return {
    url: agent.url,
    cardUrl: agent.cardUrl,
    setDefects: (d) => agent.setDefects(d),
    setPermitted: (p) => agent.setPermitted(p),
    requests: agent.requests,
    close() {
      closing ??= (async () => {
        await agent.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
