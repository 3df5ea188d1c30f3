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
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from 'a2a-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import { mountExpress, type DemoAgentOptions, type MountedDemoAgent, trimSlash } from './mount';
import { isLoopbackWebhook } from './push';

/** Where `npm start` mounts it (listed at /api/demo-orchestrator, not among the conformance demo agents). */
export const ORCHESTRATOR_PATH = '/demo/orchestrator';

/** How long B gets to answer one forwarded message. */
export const ORCHESTRATOR_PEER_TIMEOUT_MS = 30_000;
const MAX_ANSWER_CHARS = 4000;

export interface OrchestratorOptions extends DemoAgentOptions {
  /** Agent B when the message names none (`ask <url>: …` overrides it). */
  peerUrl?: string;
  /** The peer shown in the skill's examples (default: `peerUrl`). */
  examplePeerUrl?: string;
  /** B's answer time limit (default 30 s). */
  peerTimeoutMs?: number;
}

/** `ask <url>: <text>` (or `ask <url> <text>`): the agent to forward to and what to say. */
export function parseAsk(text: string): { url: string; text: string } | undefined {
  const m = /^\s*ask\s+(https?:\/\/\S+?)(?::\s+|\s+)([\s\S]+)$/i.exec(text);
  if (!m?.[1] || !m[2]?.trim()) return undefined;
  return { url: m[1], text: m[2].trim() };
}

/** Forwarding is limited to loopback http(s) URLs: the demo reaches only agents on this machine. */
export const forwardable = (url: string): boolean => isLoopbackWebhook(url);

export function buildOrchestratorCard(publicUrl: string, examplePeerUrl?: string): AgentCard {
  const base = trimSlash(publicUrl);
  const peer = examplePeerUrl ?? 'http://127.0.0.1:4173/demo/v03';
  return {
    name: 'Demo orchestrator (v0.3 SDK client)',
    description:
      "Agent A of the two-agent demo: forwards your message to another A2A agent with @a2a-js/sdk 0.3.14's client and returns its answer. Say 'ask <agent URL>: <message>' (loopback agents only).",
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

class OrchestratorExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();
  private readonly contexts = new Map<string, string>();
  /** Our context -> B's context (per peer), so a conversation with A continues one conversation with B. */
  private readonly peerContexts = new Map<string, string>();
  private readonly factory = new ClientFactory();

  constructor(private readonly opts: OrchestratorOptions) {}

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
      // The SDK resolves its relative card path (`.well-known/agent-card.json`) against the URL given: without a
      // trailing slash it would look one folder up (`/demo/.well-known/…` for `/demo/v03`).
      const client = await this.factory.createFromUrl(`${base}/`);
      const card = await client.getAgentCard({ signal: abort.signal });
      const key = `${base} ${contextId}`;
      const peerContext = this.peerContexts.get(key);
      const result = await client.sendMessage(
        {
          message: {
            kind: 'message',
            messageId: randomUUID(),
            role: 'user',
            parts: [{ kind: 'text', text: ask.text }],
            ...(peerContext ? { contextId: peerContext } : {}),
          },
          configuration: { blocking: true, acceptedOutputModes: ['text/plain'] },
        },
        { signal: abort.signal },
      );
      const answer = answerOf(result);
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
      this.finish(bus, taskId, contextId, 'completed', `${card.name.slice(0, 120)} answered${state}: ${said}`);
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
  const card = buildOrchestratorCard(opts.publicUrl, opts.examplePeerUrl ?? opts.peerUrl);
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
