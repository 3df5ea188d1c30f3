/**
 * What the MCP tools need (ToolDeps) and the bodies of the two tools that are not single exchanges:
 * discover_a2a_agent (the card, its generation and binding, the card checks) and run_a2a_conformance (the suite,
 * progress notifications, the full report to a file and a bounded summary). tools.ts registers them.
 */
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { computeLevel, discoverCard, runConformance, type CheckResult, type Credentials, type Host, type RunEvent, type TargetInfo } from '../engine';
import { isRecord } from '../engine/util/json';
import { ALL_CHECKS, unknownCheckIds } from '../engine/checks';
import { EXPORT_FORMATS, type ExportFormat } from '../exporters';
import { fetchWithHeaders, outputRedactor, splitHeaders, toolError, toolResult } from './format';
import { boundedSummary, writeReports } from './summary';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
export const oauthInput = z
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
export const FORMATS = EXPORT_FORMATS as [ExportFormat, ...ExportFormat[]];

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

export async function discover(deps: ToolDeps, args: { agent_url: string; headers?: Record<string, string> }, signal: AbortSignal): Promise<CallToolResult> {
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

export async function conformance(
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
