/**
 * The MCP tools: discover an agent, run the conformance suite, and single exchanges (send, get, cancel) judged
 * with the suite's rules. Every failure comes back as a tool error (isError) with a sentence saying what to do;
 * every call is bounded in time. The bodies of discover and run are in agent-tools.ts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { openSession, SessionInputError, TaskMemory, type Session, type SessionResult } from '../engine/session';
import { agentUrl, exchangeView, headers, outputRedactor, sessionView, toolError, toolResult } from './format';
import { CHECK_CATALOG } from '../engine/checks';
import { checkInGeneration, levelsLine, suggest } from '../cli/explain';
import { GENERATIONS } from '../engine/model/check';
import { conformance, discover, FORMATS, oauthInput, type Extra, type ToolDeps } from './agent-tools';

/** Task states seen per agent, so a terminal state that changes between two calls is a finding. */
const MAX_AGENTS = 50;

/** Registers the tools on `server`. */
export function registerTools(server: McpServer, deps: ToolDeps): void {
  const memories = new Map<string, TaskMemory>();
  const memoryFor = (url: string) => {
    const key = url.replace(/\/+$/, '');
    let m = memories.get(key);
    if (!m) {
      m = new TaskMemory();
      memories.set(key, m);
      if (memories.size > MAX_AGENTS) memories.delete(memories.keys().next().value ?? key);
    }
    return m;
  };

  server.registerTool(
    'discover_a2a_agent',
    {
      title: 'Discover an A2A agent',
      description:
        "Finds an A2A agent's card (/.well-known/agent-card.json, then the legacy /.well-known/agent.json, under the path and at the root), and returns the card as received, the normalized card, the protocol generation (legacy, v0.2, v0.3, v1.0) and binding (JSON-RPC, HTTP+JSON, gRPC) detected with the evidence, its skills, and the card checks' results (what is wrong with the card, with the spec sentence and a fix). Tolerant of card variants (capabilities as an array or object, legacy paths, string flags): every repair is reported as a finding.",
      inputSchema: { agent_url: agentUrl, headers },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) => guarded(deps, 'discover_a2a_agent', 120_000, extra, (signal) => discover(deps, args, signal)),
  );

  server.registerTool(
    'run_a2a_conformance',
    {
      title: 'Run the A2A conformance suite',
      description:
        "Runs the conformance suite against an A2A agent (card, task lifecycle, streaming, error handling, auth, interop checks) and returns a bounded summary (under 8,000 characters): the conformance level (full / partial / minimal / non-conformant, or why it could not be assessed), the counts, and each failure with the spec sentence it breaks and the fix. The full report is written as JSON and in `format` to the server's report directory; report_files gives the paths. Sends progress notifications when the request carries a progressToken. A full run takes seconds to minutes; use `only` for a few checks (list_checks names them, explain_check quotes what one enforces): a run of selected checks reports their results and no level.",
      inputSchema: {
        agent_url: agentUrl,
        headers,
        oauth: oauthInput,
        skills: z.array(z.string().min(1).max(200)).max(50).optional().describe('Skill ids to exercise (default: every skill of the card).'),
        only: z.array(z.string().min(1).max(100)).max(100).optional().describe('Run only these check ids (e.g. ["lifecycle.send", "streaming.terminal"]).'),
        timeout_seconds: z
          .number()
          .positive()
          .max(3600)
          .optional()
          .describe(
            "The per-task timeout in seconds (default 60, the conformance procedure's): a task or stream that reaches no terminal state within it is the agent's failure.",
          ),
        format: z.enum(FORMATS).optional().describe('Format of the full report file written besides the JSON one (default markdown).'),
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) => guarded(deps, 'run_a2a_conformance', 30 * 60_000, extra, (signal) => conformance(deps, args, extra, signal)),
  );

  server.registerTool(
    'list_checks',
    {
      title: 'List the conformance checks',
      description:
        'Lists the checks of the conformance suite: id (what run_a2a_conformance `only` takes), category, MUST/SHOULD/MAY per protocol generation (legacy/v0.2/v0.3/v1.0, - where it does not apply) and title. Filter by category or by words in the id or title.',
      inputSchema: {
        category: z.enum(['agent-card', 'lifecycle', 'streaming', 'error-handling', 'interop', 'security']).optional().describe('Only this category.'),
        query: z.string().max(200).optional().describe('Only checks whose id or title contains this text (case-insensitive).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const q = args.query?.trim().toLowerCase();
      const checks = CHECK_CATALOG.filter((c) => (!args.category || c.category === args.category) && (!q || `${c.id} ${c.title}`.toLowerCase().includes(q)));
      return toolResult(
        outputRedactor(),
        {
          count: checks.length,
          levels: 'legacy/v0.2/v0.3/v1.0',
          checks: checks.map((c) => ({ id: c.id, category: c.category, levels: levelsLine(c), title: c.title })),
        },
        false,
      );
    },
  );

  server.registerTool(
    'explain_check',
    {
      title: 'Explain a conformance check',
      description:
        'What one check enforces: per protocol generation, its strength (MUST/SHOULD/MAY), the sentences of the specification it is traced to (quoted, with section and link), and the fix an agent needs when it fails.',
      inputSchema: { check_id: z.string().min(1).max(100).describe('A check id, e.g. errors.task-not-found (list_checks names them).') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const c = CHECK_CATALOG.find((x) => x.id === args.check_id);
      if (!c) {
        const near = suggest(args.check_id);
        return toolError(
          outputRedactor(),
          `No check "${args.check_id}".${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} list_checks names them all.`,
          {
            suggestions: near,
          },
        );
      }
      return toolResult(
        outputRedactor(),
        {
          check: c.id,
          title: c.title,
          category: c.category,
          fix: c.recommendation,
          generations: GENERATIONS.map((g) => checkInGeneration(c, g) ?? { generation: g, applies: false }),
        },
        false,
      );
    },
  );

  const timeout = z.number().positive().max(600).optional().describe('Budget for the call in seconds (a stream: until it ends). Default 30.');
  const sessionTool = (
    name: string,
    budget: number | undefined,
    extra: Extra,
    args: { agent_url: string; headers?: Record<string, string> },
    call: (s: Session, timeoutMs: number, signal: AbortSignal) => Promise<SessionResult>,
  ) => {
    const timeoutMs = Math.round((budget ?? 30) * 1000);
    return guarded(deps, name, timeoutMs + 90_000, extra, async (signal) => {
      const r = outputRedactor(args.headers);
      const open = await openSession(deps.host(deps.fetch), {
        agentUrl: args.agent_url,
        headers: args.headers,
        memory: memoryFor(args.agent_url),
        signal,
        warmupRetries: 0,
        limits: { requestTimeoutMs: Math.min(timeoutMs, 15_000) },
      });
      if (!open.ok)
        return toolError(r, open.unavailable.message, { reason: open.unavailable.reason, exchanges: open.exchanges.map((x) => exchangeView(x, 1_000)) });
      try {
        const res = await call(open.session, timeoutMs, signal);
        // The agent's answer is data, an A2A error (TaskNotFound, TaskNotCancelable) or a broken answer included:
        // only "nothing answered" is a tool error.
        return toolResult(r, sessionView(res, open.target), res.outcome === 'transport');
      } catch (e) {
        if (e instanceof SessionInputError) return toolError(r, e.message, { skills: open.target.skills.map((s) => s.id) });
        throw e;
      }
    });
  };

  server.registerTool(
    'send_a2a_message',
    {
      title: 'Send a message to an A2A agent',
      description:
        'Sends one text message to an A2A agent (blocking, or on the streaming method with stream: true) and returns the exchange, the task or message it answered with, and the findings of the conformance rules (shapes, ids, states and transitions, event order, end of stream), per SSE event for streams. Continue a task (e.g. answer input-required) with task_id and context_id.',
      inputSchema: {
        agent_url: agentUrl,
        text: z.string().min(1).max(100_000).describe('The message text.'),
        skill: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('A skill id from the card: its output modes are the ones accepted (A2A has no skill selection; the text decides).'),
        task_id: z.string().min(1).max(500).optional().describe('Continue this task (e.g. answer an input-required question).'),
        context_id: z.string().min(1).max(500).optional().describe('The conversation (context) to continue.'),
        stream: z.boolean().optional().describe('Use the streaming method and read the stream to its end (default false: a blocking send).'),
        headers,
        timeout_seconds: timeout,
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) =>
      sessionTool('send_a2a_message', args.timeout_seconds, extra, args, (s, timeoutMs, signal) => {
        const o = { text: args.text, skill: args.skill, taskId: args.task_id, contextId: args.context_id, timeoutMs, signal };
        return args.stream ? s.stream(o) : s.send(o);
      }),
  );

  server.registerTool(
    'get_a2a_task',
    {
      title: 'Get an A2A task',
      description:
        'Gets a task from an A2A agent (tasks/get, GetTask) and returns it with the exchange and the findings of the conformance rules (same id, legal state, shape, a terminal state that changed since an earlier call).',
      inputSchema: {
        agent_url: agentUrl,
        task_id: z.string().min(1).max(500).describe('The task id.'),
        history_length: z.number().int().min(0).max(1000).optional().describe('How many history messages to ask for.'),
        headers,
        timeout_seconds: timeout,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      sessionTool('get_a2a_task', args.timeout_seconds, extra, args, (s, timeoutMs, signal) =>
        s.get({ taskId: args.task_id, historyLength: args.history_length, timeoutMs, signal }),
      ),
  );

  server.registerTool(
    'cancel_a2a_task',
    {
      title: 'Cancel an A2A task',
      description:
        'Cancels a task on an A2A agent (tasks/cancel, CancelTask) and returns the answer (the task, or an error such as TaskNotCancelable) with the exchange and the findings of the conformance rules.',
      inputSchema: { agent_url: agentUrl, task_id: z.string().min(1).max(500).describe('The task id.'), headers, timeout_seconds: timeout },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    (args, extra) =>
      sessionTool('cancel_a2a_task', args.timeout_seconds, extra, args, (s, timeoutMs, signal) => s.cancel({ taskId: args.task_id, timeoutMs, signal })),
  );
}

/**
 * Runs a tool body with a hard deadline and the client's cancellation: it always answers, and a failure of ours
 * is said to be ours, never the agent's.
 */
async function guarded(
  deps: ToolDeps,
  name: string,
  limitMs: number,
  extra: Extra,
  body: (signal: AbortSignal) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const ctl = new AbortController();
  const onCancel = () => ctl.abort(new Error('canceled by the client'));
  if (extra.signal.aborted) onCancel();
  else extra.signal.addEventListener('abort', onCancel, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<CallToolResult>((resolve) => {
    timer = setTimeout(() => {
      ctl.abort(new Error('deadline'));
      resolve(
        toolError(
          outputRedactor(),
          `${name} gave up after ${Math.round(limitMs / 1000)} s (our hard limit for one call); the agent may still be working. Try a smaller scope or a shorter timeout_seconds.`,
        ),
      );
    }, limitMs);
  });
  try {
    return await Promise.race([body(ctl.signal), deadline]);
  } catch (e) {
    deps.log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return toolError(
      outputRedactor(),
      `${name} failed inside a2a-interop (a bug of this tool, not a verdict on the agent): ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    clearTimeout(timer);
    extra.signal.removeEventListener('abort', onCancel);
  }
}
