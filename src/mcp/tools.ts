/**
 * The MCP tools: discover an agent, run the conformance suite, and single exchanges (send, get, cancel) judged
 * with the suite's rules. Every failure comes back as a tool error (isError) with a sentence saying what to do;
 * every call is bounded in time.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { computeLevel, discoverCard, runConformance, type CheckResult, type Credentials, type Host, type RunEvent, type TargetInfo } from '../engine';
import { isRecord } from '../engine/util/json';
import { ALL_CHECKS, unknownCheckIds } from '../engine/checks';
import { openSession, SessionInputError, TaskMemory, type Session, type SessionResult } from '../engine/session';
import { EXPORT_FORMATS, type ExportFormat } from '../exporters';
import { agentUrl, exchangeView, fetchWithHeaders, headers, outputRedactor, sessionView, splitHeaders, toolError, toolResult } from './format';
import { CHECK_CATALOG } from '../engine/checks';
import { checkInGeneration, levelsLine, suggest } from '../cli/explain';
import { GENERATIONS } from '../engine/model/check';
import { boundedSummary, writeReports } from './summary';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

type Fetch = typeof globalThis.fetch;

export interface ToolDeps {
  /** The engine's host for a call; `f` already adds the caller's extra headers. */
  host(f: Fetch): Host;
  fetch: Fetch;
  /** Diagnostics (stderr): never stdout, which carries the protocol. */
  log(line: string): void;
  /** Where OAuth client secrets are read from (default: the process environment). */
  env?: Record<string, string | undefined>;
  /**
   * The only environment variables a call may name as `client_secret_env`, fixed when the server starts (default
   * A2A_OAUTH_CLIENT_SECRET; `A2A_MCP_OAUTH_SECRET_ENV` in server.ts): a call steered by hostile card text must not
   * be able to send any other variable (a cloud or CI token) to the token URL a card names.
   */
  secretEnvNames?: readonly string[];
  /** Where run_a2a_conformance writes its full reports (`a2a-interop mcp --report-dir`); the result names the files. */
  reportDir?: string;
}

export const DEFAULT_SECRET_ENV = 'A2A_OAUTH_CLIENT_SECRET';

/** OAuth 2.0 client credentials for a run; the secret is read from the server's environment, never passed in the call. */
const oauthInput = z
  .object({
    client_id: z.string().min(1).max(500),
    client_secret_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the name of an environment variable')
      .max(200)
      .optional()
      .describe(
        'Environment variable of the MCP server holding the client secret (default A2A_OAUTH_CLIENT_SECRET); only the names allowed when the server started (A2A_MCP_OAUTH_SECRET_ENV) are read.',
      ),
    scope: z.string().max(1000).optional().describe("Space-separated scopes (default: the card's requirement)."),
  })
  .optional()
  .describe(
    "OAuth 2.0 client credentials for a card that declares OAuth2 / OpenID Connect: a token is fetched from the card's token endpoint and refreshed. The secret comes from the server's environment (client_secret_env), never from the call.",
  );

const CHECK_IDS = new Set(ALL_CHECKS.map((c) => c.id));
const FORMATS = EXPORT_FORMATS as [ExportFormat, ...ExportFormat[]];

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

/** A result as an assistant reads it: what failed, why (the spec sentences), and how to fix it. */
function resultView(r: CheckResult) {
  return {
    check: r.id,
    title: r.test,
    category: r.category,
    status: r.status,
    level: r.level,
    message: r.message,
    ...(r.recommendation && { recommendation: r.recommendation }),
    ...(r.advisoryReason && { why_advisory: r.advisoryReason }),
    ...(r.skipKind && { skip: r.skipKind }),
    ...(r.specRef && { spec_ref: r.specRef }),
    ...(r.requirement?.sentences.length && { spec: r.requirement.sentences.slice(0, 4).map((s) => `${s.doc} ${s.section} (${s.keyword}): "${s.quote}"`) }),
    ...(r.evidence.length && {
      evidence: r.evidence.slice(0, 4).map((e) => ({ label: e.label, value: e.value.length > 1_500 ? `${e.value.slice(0, 1_500)}…` : e.value })),
    }),
  };
}

const agentView = (t: TargetInfo | undefined, name: string) =>
  t ? { name, url: t.inputUrl, card_url: t.cardUrl, generation: t.generation, binding: t.binding, endpoint_url: t.endpointUrl } : undefined;

async function discover(deps: ToolDeps, args: { agent_url: string; headers?: Record<string, string> }, signal: AbortSignal): Promise<CallToolResult> {
  const r = outputRedactor(args.headers);
  const { credentials, extra } = splitHeaders(args.headers);
  const found = await discoverCard(deps.host(fetchWithHeaders(deps.fetch, extra, args.agent_url)), args.agent_url, {
    credentials,
    judge: true,
    signal,
    warmupRetries: 1,
    timeoutMs: 15_000,
  });
  const t = found.info;
  if (t.reach !== 'card') {
    // The run's own words for an agent that was never reached (level.ts).
    const v = computeLevel([], { agent: t, runComplete: true, credentialsGiven: credentials.kind !== 'none' });
    return toolError(r, v.notAssessed?.message ?? t.error ?? 'No agent card was found.', { reason: v.notAssessed?.reason ?? t.reach, attempts: t.attempts });
  }
  const results = found.findings ?? [];
  const count = (st: CheckResult['status']) => results.filter((x) => x.status === st).length;
  const invalid = results.filter((x) => x.status === 'fail' && x.tier === 'card');
  const untestable = isRecord(found.raw) ? found.detection.untestable : undefined;
  const summary = `Found ${t.generation ? `a ${t.generation} agent card` : 'an agent card'} at ${t.cardUrl ?? args.agent_url}${t.binding ? ` (${t.binding} at ${t.endpointUrl ?? '?'})` : ''}: ${invalid.length ? `invalid (${invalid.length} card MUST failure(s))` : 'valid'}; card checks: ${count('pass')} passed, ${count('fail')} failed, ${count('advisory')} advisory, ${count('skip')} skipped${count('error') ? `, ${count('error')} tool error(s)` : ''}.${untestable ? ` ${untestable}` : ''}`;
  return toolResult(
    r,
    {
      summary,
      agent: agentView(t, found.card.name || '(unnamed)'),
      card_source: t.cardSource,
      card_valid: invalid.length === 0,
      detection_evidence: t.evidence,
      skills: found.card.skills.map((k) => ({ id: k.id, name: k.name, examples: k.examples, input_modes: k.inputModes, output_modes: k.outputModes })),
      capabilities: found.card.capabilities,
      findings: results.filter((x) => x.status === 'fail' || x.status === 'error').map(resultView),
      advisories: results.filter((x) => x.status === 'advisory').map(resultView),
      passed: results.filter((x) => x.status === 'pass').map((x) => x.id),
      skipped: results.filter((x) => x.status === 'skip').map((x) => ({ check: x.id, why: x.message })),
      card_as_received: t.rawCard ?? (t.rawText !== undefined ? { not_json: t.rawText } : undefined),
      normalized_card: t.normalizedCard,
      discovery_attempts: t.attempts,
    },
    false,
  );
}

async function conformance(
  deps: ToolDeps,
  args: {
    agent_url: string;
    headers?: Record<string, string>;
    oauth?: z.infer<typeof oauthInput>;
    skills?: string[];
    only?: string[];
    timeout_seconds?: number;
    format?: ExportFormat;
  },
  extra: Extra,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const r = outputRedactor(args.headers);
  const unknown = unknownCheckIds(args.only ?? []);
  if (unknown.length) {
    return toolError(
      r,
      `Unknown check id(s): ${unknown.map((u) => `${u.id}${u.suggestions.length ? ` (did you mean ${u.suggestions.join(', ')}?)` : ''}`).join('; ')}. list_checks names them all.`,
      { check_ids: [...CHECK_IDS] },
    );
  }
  const split = splitHeaders(args.headers);
  const more = split.extra;
  let credentials: Credentials = split.credentials;
  if (args.oauth) {
    if (credentials.kind !== 'none') return toolError(r, 'Give the credential in "headers" or in "oauth", not both.');
    const name = args.oauth.client_secret_env ?? DEFAULT_SECRET_ENV;
    const allowed = deps.secretEnvNames ?? [DEFAULT_SECRET_ENV];
    if (!allowed.includes(name))
      return toolError(
        r,
        `oauth: this MCP server reads client secrets only from ${allowed.join(', ')} (set when it starts: A2A_MCP_OAUTH_SECRET_ENV=NAME[,NAME…] in its environment), not from ${name}.`,
      );
    const secret = (deps.env ?? process.env)[name];
    if (!secret) return toolError(r, `oauth: the client secret is read from the environment variable ${name} of this MCP server, which is empty or not set.`);
    r.addSecret(secret);
    credentials = {
      kind: 'oauth2',
      clientId: args.oauth.client_id,
      clientSecret: secret,
      ...(args.oauth.scope?.trim() ? { scope: args.oauth.scope.trim() } : {}),
    };
  }
  const format = args.format ?? 'markdown';
  const total = args.only?.length ? ALL_CHECKS.filter((c) => args.only!.includes(c.id)).length : ALL_CHECKS.length;
  const token = extra._meta?.progressToken;
  let done = 0;
  const progress = (message: string) => {
    if (token === undefined) return;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, message: r.text(message) } })
      .catch(() => undefined);
  };
  const onEvent = (e: RunEvent) => {
    if (e.type === 'target-resolved' && e.target.role === 'agent')
      progress(e.target.generation ? `card found: ${e.target.generation} ${e.target.binding ?? ''}`.trim() : (e.target.error ?? 'no card'));
    else if (e.type === 'check-finished') {
      done++;
      progress(`${e.result.id}: ${e.result.status}`);
    }
  };
  const report = await runConformance(
    deps.host(fetchWithHeaders(deps.fetch, more, args.agent_url)),
    {
      agentUrl: args.agent_url,
      credentials,
      skills: args.skills,
      only: args.only,
      timeoutMs: Math.round((args.timeout_seconds ?? 60) * 1000),
      signal,
      transport: 'direct',
    },
    onEvent,
  );
  const t = report.targets.find((x) => x.role === 'agent');
  const cardSkills = ((t?.normalizedCard as { skills?: { id: string }[] } | undefined)?.skills ?? []).map((k) => k.id);
  const unknownSkills = t?.normalizedCard ? (args.skills ?? []).filter((id) => !cardSkills.includes(id)) : [];
  // The full report goes to a file; the answer is a bounded summary that names it.
  // A directory we cannot write (or that another user owns) costs the files, never the verdict: the summary says why.
  let written: ReturnType<typeof writeReports>;
  try {
    written = writeReports(deps.reportDir ?? defaultReportDir(), report, format, (text) => r.text(text));
  } catch (e) {
    deps.log(`run_a2a_conformance: the report was not written: ${e instanceof Error ? e.message : String(e)}`);
    written = { files: {}, error: `The full report was not written: ${e instanceof Error ? e.message : String(e)}` };
  }
  const value = boundedSummary({
    report,
    agent: agentView(t, report.agentName),
    files: written.files,
    extra: {
      ...(unknownSkills.length && { unknown_skills: unknownSkills, card_skills: cardSkills.slice(0, 50) }),
      ...(written.fallback && { report_fallback: written.fallback }),
      ...(written.error && { report_error: written.error }),
    },
  });
  // Not assessed is an answer about the agent (data); only our own failure is a tool error.
  const failed = report.runStatus === 'errored' || report.notAssessed?.reason === 'tool-failure';
  return toolResult(r, value, failed);
}

/** The report directory when the server was started without one: this user's own folder in the temp directory. */
export const defaultReportDir = () => join(tmpdir(), `a2a-interop-mcp-reports${typeof process.getuid === 'function' ? `-${process.getuid()}` : ''}`);
