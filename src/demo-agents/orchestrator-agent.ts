/**
 * The demo orchestrator ("agent A"): an A2A agent on the official v0.3 SDK (`a2a-sdk-v03` = @a2a-js/sdk 0.3.14)
 * whose one skill forwards a message to another agent ("agent B") with the same SDK's client
 * (`ClientFactory.createFromUrl`: it reads B's card, picks B's preferred transport, sends the message) and returns
 * B's answer. The Tap page puts a tap in front of B and points this agent at the tap, so the dashboard shows A -> B
 * as a conversation (issue 26).
 *
 * Its message text says where to forward: `ask <agent URL>: <text>`; any other text goes to the configured peer
 * (`peerUrl`), when there is one. It only forwards to loopback URLs (a demo agent of the local server is no relay to
 * other machines), and gives B 30 s to answer.
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { AgentCard, Message, Part, Task, TaskState } from 'a2a-sdk-v03';
import { ClientFactory } from 'a2a-sdk-v03/client';
import { Role as Role1, TaskState as TaskState1, type Message as Message1, type Part as Part1, type Task as Task1 } from '@a2a-js/sdk';
import {
  ClientFactory as ClientFactory1,
  DefaultAgentCardResolver as CardResolver1,
  JsonRpcTransportFactory as JsonRpc1,
  RestTransportFactory as Rest1,
} from '@a2a-js/sdk/client';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from 'a2a-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import { mountExpress, type DemoAgentOptions, type MountedDemoAgent, trimSlash } from './mount';
import { isLoopbackWebhook } from './push';

/** Where `npm start` mounts it (listed at /api/demo-orchestrator, not among the conformance demo agents). */
export const ORCHESTRATOR_PATH = '/demo/orchestrator';
/** The same agent A, calling B with @a2a-js/sdk 1.3.0's client (v1.0 first, as that client chooses). */
export const ORCHESTRATOR_V1_PATH = '/demo/orchestrator-v1';

/** Which official SDK client agent A calls B with. */
export type OrchestratorClient = '0.3' | '1.x';
export const ORCHESTRATOR_CLIENTS: Record<OrchestratorClient, string> = {
  '0.3': '@a2a-js/sdk 0.3.14 client',
  '1.x': '@a2a-js/sdk 1.3.0 client',
};

/** How long B gets to answer one forwarded message. */
const ORCHESTRATOR_PEER_TIMEOUT_MS = 30_000;
const MAX_ANSWER_CHARS = 4000;

export interface OrchestratorOptions extends DemoAgentOptions {
  /** Agent B when the message names none (`ask <url>: …` overrides it). */
  peerUrl?: string;
  /** The peer shown in the skill's examples (default: `peerUrl`). */
  examplePeerUrl?: string;
  /** B's answer time limit (default 30 s). */
  peerTimeoutMs?: number;
  /** The SDK client A calls B with (default 0.3). */
  client?: OrchestratorClient;
}

/** `ask <url>: <text>` (or `ask <url> <text>`): the agent to forward to and what to say. */
export function parseAsk(text: string): { url: string; text: string } | undefined {
  const m = /^\s*ask\s+(https?:\/\/\S+?)(?::\s+|\s+)([\s\S]+)$/i.exec(text);
  if (!m?.[1] || !m[2]?.trim()) return undefined;
  return { url: m[1], text: m[2].trim() };
}

/** Forwarding is limited to loopback http(s) URLs: the demo reaches only agents on this machine. */
export const forwardable = (url: string): boolean => isLoopbackWebhook(url);

export function buildOrchestratorCard(publicUrl: string, examplePeerUrl?: string, client: OrchestratorClient = '0.3'): AgentCard {
  const base = trimSlash(publicUrl);
  const peer = examplePeerUrl ?? 'http://127.0.0.1:4173/demo/v03';
  return {
    name: `Demo orchestrator (${ORCHESTRATOR_CLIENTS[client]})`,
    description: `Agent A of the two-agent demo: forwards your message to another A2A agent with the ${ORCHESTRATOR_CLIENTS[client]} and returns its answer. Say 'ask <agent URL>: <message>' (loopback agents only).`,
    protocolVersion: '0.3.0',
    url: `${base}/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${base}/jsonrpc`, transport: 'JSONRPC' },
      { url: `${base}/rest`, transport: 'HTTP+JSON' },
    ],
    provider: { organization: 'a2a-interop demo', url: 'https://github.com/a2aproject/a2a-js' },
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'delegate',
        name: 'Ask another agent',
        description: "Sends your message to the A2A agent you name (or the configured peer) and answers with that agent's reply.",
        tags: ['orchestrator', 'two-agent', 'delegation'],
        examples: [`ask ${trimSlash(peer)}: Hello from the orchestrator`, `ask ${trimSlash(peer)}: Write a haiku about interoperability`],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
      },
    ],
  };
}

const partsText = (parts: readonly Part[] | undefined): string =>
  (parts ?? [])
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('')
    .trim();

/** What B said: a Message's text, else a task's artifacts, else its status message. */
export function answerOf(result: Message | Task): { text: string; state?: TaskState; taskId?: string; contextId?: string } {
  if (result.kind === 'message') return { text: partsText(result.parts), ...(result.contextId ? { contextId: result.contextId } : {}) };
  const artifacts = (result.artifacts ?? []).map((a) => partsText(a.parts)).filter(Boolean);
  const text = artifacts.join('\n') || partsText(result.status.message?.parts);
  return { text, state: result.status.state, taskId: result.id, contextId: result.contextId };
}

const userText = (m: Message) => partsText(m.parts);

/** What B said to one forwarded message, whichever SDK client asked. */
export interface PeerAnswer {
  peerName: string;
  text: string;
  state?: string;
  taskId?: string;
  contextId?: string;
}

/** Sends B (at `base`, no trailing slash) one message with an SDK client and reads its answer. */
type Forward = (base: string, text: string, peerContext: string | undefined, signal: AbortSignal) => Promise<PeerAnswer>;

// Both SDKs resolve their relative card path (`.well-known/agent-card.json`) against the URL given: without a
// trailing slash it would look one folder up (`/demo/.well-known/…` for `/demo/v03`), hence `${base}/`.
function forwardWith03(): Forward {
  const factory = new ClientFactory();
  return async (base, text, peerContext, signal) => {
    const client = await factory.createFromUrl(`${base}/`);
    const card = await client.getAgentCard({ signal });
    const result = await client.sendMessage(
      {
        message: {
          kind: 'message',
          messageId: randomUUID(),
          role: 'user',
          parts: [{ kind: 'text', text }],
          ...(peerContext ? { contextId: peerContext } : {}),
        },
        configuration: { blocking: true, acceptedOutputModes: ['text/plain'] },
      },
      { signal },
    );
    return { peerName: card.name, ...answerOf(result) };
  };
}

const parts1Text = (parts: readonly Part1[] | undefined) =>
  (parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('')
    .trim();

/** B's answer as the 1.x client gives it (proto-shaped: enum states, `$case` parts). */
export function answerOf1(result: Message1 | Task1): Omit<PeerAnswer, 'peerName'> {
  if ('messageId' in result) return { text: parts1Text(result.parts), ...(result.contextId ? { contextId: result.contextId } : {}) };
  const artifacts = result.artifacts.map((a) => parts1Text(a.parts)).filter(Boolean);
  const text = artifacts.join('\n') || parts1Text(result.status?.message?.parts);
  const raw = result.status ? TaskState1[result.status.state] : undefined;
  const state =
    typeof raw === 'string'
      ? raw
          .replace(/^TASK_STATE_/, '')
          .toLowerCase()
          .replace(/_/g, '-')
      : undefined;
  return { text, taskId: result.id, contextId: result.contextId, ...(state ? { state } : {}) };
}

/** The 1.x client with its v0.3 compatibility on (as a migrating orchestrator runs it): it talks to v1.0 and v0.3 agents. */
function forwardWith1(): Forward {
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory1({
    transports: [new JsonRpc1({ legacyCompat }), new Rest1({ legacyCompat })],
    cardResolver: new CardResolver1({ legacyCompat }),
  });
  return async (base, text, peerContext, signal) => {
    const client = await factory.createFromUrl(`${base}/`);
    const card = await client.getAgentCard({ signal });
    const result = await client.sendMessage(
      {
        tenant: '',
        message: {
          messageId: randomUUID(),
          contextId: peerContext ?? '',
          taskId: '',
          role: Role1.ROLE_USER,
          parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: { acceptedOutputModes: ['text/plain'], taskPushNotificationConfig: undefined, returnImmediately: false },
        metadata: undefined,
      },
      { signal },
    );
    return { peerName: card.name, ...answerOf1(result) };
  };
}

class OrchestratorExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();
  private readonly contexts = new Map<string, string>();
  /** Our context -> B's context (per peer), so a conversation with A continues one conversation with B. */
  private readonly peerContexts = new Map<string, string>();
  private readonly forward: Forward;

  constructor(private readonly opts: OrchestratorOptions) {
    this.forward = opts.client === '1.x' ? forwardWith1() : forwardWith03();
  }

  private finish(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text: string): void {
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId,
      status: {
        state,
        timestamp: new Date().toISOString(),
        message: { kind: 'message', messageId: randomUUID(), role: 'agent', parts: [{ kind: 'text', text }], taskId, contextId },
      },
      final: true,
    });
    bus.finished();
  }

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = ctx;
    this.contexts.set(taskId, contextId);
    if (!ctx.task) {
      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'submitted', timestamp: new Date().toISOString() }, history: [userMessage] });
    }
    const text = userText(userMessage);
    const ask = parseAsk(text) ?? (this.opts.peerUrl ? { url: this.opts.peerUrl, text } : undefined);
    if (!ask) {
      this.finish(bus, taskId, contextId, 'rejected', "Tell me where to forward it: 'ask <agent URL>: <message>'.");
      return;
    }
    if (!forwardable(ask.url)) {
      this.finish(
        bus,
        taskId,
        contextId,
        'rejected',
        `This demo forwards only to agents on this machine (http://127.0.0.1…, localhost); not ${ask.url.slice(0, 200)}.`,
      );
      return;
    }
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId,
      status: {
        state: 'working',
        timestamp: new Date().toISOString(),
        message: { kind: 'message', messageId: randomUUID(), role: 'agent', parts: [{ kind: 'text', text: `Asking ${ask.url}…` }], taskId, contextId },
      },
      final: false,
    });
    const abort = new AbortController();
    this.running.set(taskId, abort);
    const timer = setTimeout(() => abort.abort(new Error('timeout')), this.opts.peerTimeoutMs ?? ORCHESTRATOR_PEER_TIMEOUT_MS);
    try {
      const base = trimSlash(ask.url);
      const key = `${base} ${contextId}`;
      const answer = await this.forward(base, ask.text, this.peerContexts.get(key), abort.signal);
      if (answer.contextId) this.peerContexts.set(key, answer.contextId);
      const said = (answer.text || '(no text)').slice(0, MAX_ANSWER_CHARS);
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: {
          artifactId: `${taskId}-answer`,
          name: 'answer',
          parts: [{ kind: 'text', text: said }],
          metadata: { peerUrl: base, ...(answer.taskId ? { peerTaskId: answer.taskId } : {}), ...(answer.state ? { peerState: answer.state } : {}) },
        },
        lastChunk: true,
      });
      const state = answer.state ? ` (its task: ${answer.state})` : '';
      this.finish(bus, taskId, contextId, 'completed', `${answer.peerName.slice(0, 120)} answered${state}: ${said}`);
    } catch (e) {
      if (this.running.get(taskId) !== abort) return;
      const why = abort.signal.aborted
        ? `no answer within ${(this.opts.peerTimeoutMs ?? ORCHESTRATOR_PEER_TIMEOUT_MS) / 1000} s`
        : e instanceof Error
          ? e.message
          : String(e);
      this.finish(bus, taskId, contextId, 'failed', `Could not get an answer from ${ask.url.slice(0, 200)}: ${why.slice(0, 500)}`);
    } finally {
      clearTimeout(timer);
      this.running.delete(taskId);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const running = this.running.get(taskId);
    this.running.delete(taskId);
    running?.abort(new Error('canceled'));
    const contextId = this.contexts.get(taskId) ?? '';
    bus.publish({ kind: 'status-update', taskId, contextId, status: { state: 'canceled', timestamp: new Date().toISOString() }, final: true });
    bus.finished();
  };
}

export function createOrchestratorDemoAgent(opts: OrchestratorOptions): MountedDemoAgent {
  const basePath = trimSlash(opts.basePath);
  const card = buildOrchestratorCard(opts.publicUrl, opts.examplePeerUrl ?? opts.peerUrl, opts.client);
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new OrchestratorExecutor(opts));
  const router = express.Router();
  router.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  router.use('/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  router.use('/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return mountExpress(basePath, router, {
    url: `${trimSlash(opts.publicUrl)}/jsonrpc`,
    cardUrl: `${trimSlash(opts.publicUrl)}/.well-known/agent-card.json`,
  });
}
