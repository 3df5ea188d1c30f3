/**
 * Demo agent on the real v1.0 SDK (@a2a-js/sdk 1.3.0): JSON-RPC and HTTP+JSON on one DefaultRequestHandler.
 *
 * legacyCompat is ENABLED on all three express handlers, and the card lists each binding twice
 * (protocolVersion "1.0" first, then "0.3"), as a2a-js' own compat sample does. This is what real
 * migrating deployments look like: a card request without `A2A-Version` gets the v0.3-shaped card and
 * `Vary: A2A-Version`, and a JSON-RPC/REST request without the header is served with v0.3 semantics.
 * It exercises the dashboard's discovery (which must send `A2A-Version: 1.0`) and version checks.
 */
import express from 'express';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { behaviourFor, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, FAIL_REASON, HAIKU_LINES, INPUT_QUESTION, SKILLS } from '../testing/defect-agent/skills';
import { mountExpress, type DemoAgentOptions, type MountedDemoAgent, trimSlash } from './mount';
import { TaskPacer } from './pacing';
import { loopbackOnly } from './push';

const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function userText(m: Message): string {
  return m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(' ');
}

function buildV1Card(publicUrl: string, grpcUrl?: string): AgentCard {
  const base = trimSlash(publicUrl);
  const iface = (path: string, protocolBinding: string, protocolVersion: string) => ({
    url: `${base}${path}`,
    protocolBinding,
    protocolVersion,
    tenant: '',
  });
  return {
    name: 'Demo agent (v1.0 SDK)',
    description: "Built on @a2a-js/sdk 1.3.0: JSON-RPC and HTTP+JSON, with the SDK's v0.3 compatibility layer enabled.",
    supportedInterfaces: [
      iface('/jsonrpc', 'JSONRPC', '1.0'),
      iface('/rest', 'HTTP+JSON', '1.0'),
      iface('/jsonrpc', 'JSONRPC', '0.3'),
      iface('/rest', 'HTTP+JSON', '0.3'),
      // gRPC (v1.0 only): `host:port`, the form the SDK's gRPC client takes; see startV1GrpcDemoAgent.
      ...(grpcUrl ? [{ url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }] : []),
    ],
    provider: { organization: 'a2a-interop demo', url: 'https://github.com/a2aproject/a2a-js' },
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: SKILLS.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      examples: s.examples,
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

/** The executor: every behaviour publishes the Task first (the SDK requires it), then status/artifact events. */
class DemoExecutor implements AgentExecutor {
  private readonly pacer = new TaskPacer();
  private readonly contexts = new Map<string, string>();

  constructor(
    private readonly stepMs: number,
    private readonly slowTaskMs: number,
  ) {}

  private status(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state, message: text ? agentMessage(taskId, contextId, text) : undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    this.contexts.set(taskId, contextId);
    const user = ctx.userMessage;
    const resuming = ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
          artifacts: [],
          history: [user],
          metadata: undefined,
        }),
      );
    } else {
      bus.publish(AgentEvent.task(ctx.task));
    }
    this.status(bus, taskId, contextId, TaskState.TASK_STATE_WORKING);
    if (resuming) {
      if (!(await this.pacer.wait(taskId, this.stepMs))) return;
      this.status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, `Booked for ${userText(user).trim() || 'the day you chose'}.`);
      return;
    }
    const artifact = (name: string, text: string, append: boolean, lastChunk: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: `${taskId}-${name}`, name, description: '', parts: [textPart(text)], metadata: undefined, extensions: [] },
          append,
          lastChunk,
          metadata: undefined,
        }),
      );
    switch (behaviourFor(userText(user))) {
      case 'quick':
        for (let i = 0; i < HAIKU_LINES.length; i++) {
          if (!(await this.pacer.wait(taskId, this.stepMs))) return;
          artifact('haiku', i === 0 ? HAIKU_LINES[i]! : `\n${HAIKU_LINES[i]}`, i > 0, i === HAIKU_LINES.length - 1);
        }
        this.status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, 'Here is your haiku.');
        return;
      case 'slow':
        if (!(await this.pacer.wait(taskId, this.slowTaskMs))) return;
        artifact('report', 'The slow report is ready.', false, true);
        this.status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, 'Report done.');
        return;
      case 'input':
        if (!(await this.pacer.wait(taskId, this.stepMs))) return;
        this.status(bus, taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, INPUT_QUESTION);
        return;
      case 'fail':
        if (!(await this.pacer.wait(taskId, this.stepMs))) return;
        this.status(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, FAIL_REASON);
        return;
      case 'plain': {
        const reply = `You said: ${userText(user).slice(0, 200)}`;
        artifact('reply', reply, false, true);
        this.status(bus, taskId, contextId, TaskState.TASK_STATE_COMPLETED, reply);
        return;
      }
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.pacer.cancel(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: this.contexts.get(taskId) ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  };
}

export function createV1DemoAgent(opts: DemoAgentOptions & { grpcUrl?: string; onHandler?: (h: DefaultRequestHandler) => void }): MountedDemoAgent {
  const basePath = trimSlash(opts.basePath);
  const card = buildV1Card(opts.publicUrl, opts.grpcUrl);
  const executor = new DemoExecutor(opts.stepMs ?? DEFAULT_STEP_MS, opts.slowTaskMs ?? DEFAULT_SLOW_TASK_MS);
  // Push: the SDK's store and sender (the sender sees loopback webhooks only: see push.ts).
  const pushStore = new InMemoryPushNotificationStore();
  const pushSender = new DefaultPushNotificationSender(loopbackOnly(pushStore));
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, pushStore, pushSender);
  opts.onHandler?.(requestHandler);
  const legacyCompat = { enabled: true };
  const router = express.Router();
  router.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  router.use('/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  router.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  return mountExpress(basePath, router, {
    url: `${trimSlash(opts.publicUrl)}/jsonrpc`,
    cardUrl: `${trimSlash(opts.publicUrl)}/.well-known/agent-card.json`,
  });
}

/**
 * The v1.0 demo agent with its gRPC binding too (`@a2a-js/sdk/server/grpc` on the same request handler), listening
 * on 127.0.0.1 (`grpcPort`, default ephemeral); the card declares it as `127.0.0.1:<port>`. close() stops it.
 */
export async function startV1GrpcDemoAgent(opts: DemoAgentOptions & { grpcPort?: number }): Promise<MountedDemoAgent & { grpcUrl: string }> {
  const grpc = await import('@grpc/grpc-js');
  const { A2AService, grpcService, UserBuilder: GrpcUserBuilder } = await import('@a2a-js/sdk/server/grpc');
  const server = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${opts.grpcPort ?? 0}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const grpcUrl = `127.0.0.1:${port}`;
  let handler: DefaultRequestHandler | undefined;
  const agent = createV1DemoAgent({ ...opts, grpcUrl, onHandler: (h) => (handler = h) });
  if (!handler) throw new Error('the v1 demo agent made no request handler');
  server.addService(A2AService, grpcService({ requestHandler: handler, userBuilder: GrpcUserBuilder.noAuthentication }));
  return {
    ...agent,
    grpcUrl,
    close: async () => {
      await agent.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
