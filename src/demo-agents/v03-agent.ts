/**
 * Demo agent on the real v0.3 SDK (`a2a-sdk-v03` = @a2a-js/sdk 0.3.14): JSON-RPC (preferred) plus the
 * SDK's HTTP+JSON binding, both declared (`preferredTransport` + `additionalInterfaces`).
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { AgentCard, Message, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from 'a2a-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import { behaviourFor, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, FAIL_REASON, HAIKU_LINES, INPUT_QUESTION, SKILLS } from '../testing/defect-agent/skills';
import { mountExpress, type DemoAgentOptions, type MountedDemoAgent, trimSlash } from './mount';
import { TaskPacer } from './pacing';
import { loopbackOnly } from './push';

export function buildV03Card(publicUrl: string): AgentCard {
  const base = trimSlash(publicUrl);
  return {
    name: 'Demo agent (v0.3 SDK)',
    description: "Built on @a2a-js/sdk 0.3.14: JSON-RPC, plus the SDK's HTTP+JSON binding.",
    protocolVersion: '0.3.0',
    url: `${base}/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${base}/jsonrpc`, transport: 'JSONRPC' },
      { url: `${base}/rest`, transport: 'HTTP+JSON' },
    ],
    provider: { organization: 'a2a-interop demo', url: 'https://github.com/a2aproject/a2a-js' },
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
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
    })),
  };
}

const userText = (m: Message) => m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(' ');

class DemoExecutorV03 implements AgentExecutor {
  private readonly pacer = new TaskPacer();
  private readonly contexts = new Map<string, string>();

  constructor(
    private readonly stepMs: number,
    private readonly slowTaskMs: number,
  ) {}

  private status(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
    const final = state !== 'working' && state !== 'submitted';
    const ev: TaskStatusUpdateEvent = {
      kind: 'status-update',
      taskId,
      contextId,
      status: {
        state,
        timestamp: new Date().toISOString(),
        ...(text ? { message: { kind: 'message', messageId: randomUUID(), role: 'agent', parts: [{ kind: 'text', text }], taskId, contextId } } : {}),
      },
      final,
    };
    bus.publish(ev);
    if (final) bus.finished();
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage: user } = ctx;
    this.contexts.set(taskId, contextId);
    const resuming = ctx.task?.status.state === 'input-required';
    if (!ctx.task) {
      const task: Task = {
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [user],
      };
      bus.publish(task);
    }
    this.status(bus, taskId, contextId, 'working');
    if (resuming) {
      if (!(await this.pacer.wait(taskId, this.stepMs))) return;
      this.status(bus, taskId, contextId, 'completed', `Booked for ${userText(user).trim() || 'the day you chose'}.`);
      return;
    }
    const artifact = (name: string, text: string, append: boolean, lastChunk: boolean) => {
      const ev: TaskArtifactUpdateEvent = {
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: `${taskId}-${name}`, name, parts: [{ kind: 'text', text }] },
        append,
        lastChunk,
      };
      bus.publish(ev);
    };
    switch (behaviourFor(userText(user))) {
      case 'quick':
        for (let i = 0; i < HAIKU_LINES.length; i++) {
          if (!(await this.pacer.wait(taskId, this.stepMs))) return;
          artifact('haiku', i === 0 ? HAIKU_LINES[i]! : `\n${HAIKU_LINES[i]}`, i > 0, i === HAIKU_LINES.length - 1);
        }
        this.status(bus, taskId, contextId, 'completed', 'Here is your haiku.');
        return;
      case 'slow':
        if (!(await this.pacer.wait(taskId, this.slowTaskMs))) return;
        artifact('report', 'The slow report is ready.', false, true);
        this.status(bus, taskId, contextId, 'completed', 'Report done.');
        return;
      case 'input':
        if (!(await this.pacer.wait(taskId, this.stepMs))) return;
        this.status(bus, taskId, contextId, 'input-required', INPUT_QUESTION);
        return;
      case 'fail':
        if (!(await this.pacer.wait(taskId, this.stepMs))) return;
        this.status(bus, taskId, contextId, 'failed', FAIL_REASON);
        return;
      case 'plain': {
        const reply = `You said: ${userText(user).slice(0, 200)}`;
        artifact('reply', reply, false, true);
        this.status(bus, taskId, contextId, 'completed', reply);
        return;
      }
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.pacer.cancel(taskId);
    this.status(bus, taskId, this.contexts.get(taskId) ?? '', 'canceled');
  };
}

export function createV03DemoAgent(opts: DemoAgentOptions): MountedDemoAgent {
  const basePath = trimSlash(opts.basePath);
  const card = buildV03Card(opts.publicUrl);
  const executor = new DemoExecutorV03(opts.stepMs ?? DEFAULT_STEP_MS, opts.slowTaskMs ?? DEFAULT_SLOW_TASK_MS);
  // Push: the SDK's store and sender (the sender sees loopback webhooks only: see push.ts).
  const pushStore = new InMemoryPushNotificationStore();
  const pushSender = new DefaultPushNotificationSender(loopbackOnly(pushStore));
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, pushStore, pushSender);
  const router = express.Router();
  router.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  router.use('/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  router.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return mountExpress(basePath, router, {
    url: `${trimSlash(opts.publicUrl)}/jsonrpc`,
    cardUrl: `${trimSlash(opts.publicUrl)}/.well-known/agent-card.json`,
  });
}
