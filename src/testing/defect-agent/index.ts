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
import { createDefectAgentHandler, type DefectAgentOptions, type RecordedRequest } from './handler';

export { DEFECTS, DEFECT_NAMES, isDefectName, type DefectName } from './defects';
export { PERMITTED, PERMITTED_NAMES, isPermittedName, type PermittedName } from './permitted';
export {
  createDefectAgentHandler,
  type AuthConfig,
  type Binding,
  type DefectAgentHandler,
  type DefectAgentMountOptions,
  type DefectAgentOptions,
  type Generation,
  type RecordedRequest,
} from './handler';
export { SKILLS, behaviourFor, behaviourDelays, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, type Behaviour } from './skills';

export interface StartDefectAgentOptions extends DefectAgentOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
}

export interface RunningDefectAgent {
  /** The agent endpoint: JSON-RPC URL, or REST base URL. */
  url: string;
  /** Absolute URL of the public card. */
  cardUrl: string;
  setDefects(d: DefectName[]): void;
  setPermitted(p: PermittedName[]): void;
  /** Every request received, in order (method, path, headers, body). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startDefectAgent(opts: StartDefectAgentOptions): Promise<RunningDefectAgent> {
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
