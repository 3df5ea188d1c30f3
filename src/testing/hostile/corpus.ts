/**
 * What the hostile-agent corpus must produce, and the runner the corpus tests share (direct and through
 * the CORS proxy). Each behaviour names the checks that must fail and words their messages must contain,
 * so a verdict for the wrong reason fails the test too.
 */
import { runConformance } from '../../engine';
import type { CheckResult } from '../../engine/model/check';
import type { RunEvent } from '../../engine/model/events';
import { Report, type ConformanceLevel } from '../../engine/model/report';
import type { Host } from '../../engine/ports';
import type { Credentials, RunOptions } from '../../engine/runner/options';
import { reportResults } from '../../engine/report/build';
import { HOSTILE_NAMES, RETRY_AFTER_S, type HostileName } from './behaviours';
import { startHostileAgent } from './index';
import type { HostileKit } from './server';

/** Small budgets, so the corpus is fast and the bounds below are meaningful. */
// Generous enough that a loaded CI machine does not turn slowness into a verdict; tight enough to keep the corpus short.
const BUDGET = { timeoutMs: 5000, requestTimeoutMs: 3500, streamIdleTimeoutMs: 1500 } as const;

/**
 * Wall-time bounds of one run, doubled for a loaded 2-core machine. Discovery: at most two passes (one
 * warm-up retry after a timeout, 0.5 s apart) over the two well-known URLs, each within the request budget.
 * A run whose card gives an endpoint adds the suite: its longest chain of dependent calls is about six task
 * budgets plus the 3 s close grace of the stream checks.
 */
const DISCOVERY_BOUND_MS = 2 * (2 * 2 * BUDGET.requestTimeoutMs + 500);
const WALL_BOUND_MS = DISCOVERY_BOUND_MS + 2 * (6 * BUDGET.timeoutMs + 3000);
/** Even the 50 MB card and the event flood must leave a small, serializable event log. */
const MAX_LOG_BYTES = 20 * 1024 * 1024;

export const SECRET = 'hostile-corpus-bearer-7c1e9a';

/** A level, or `not-assessed` when the run must end without one (unreachable, no card, our budget...). */
type Outcome = ConformanceLevel | 'not-assessed';

export interface Expectation {
  /** Checks that must fail, each with a pattern its message must match (the problem, named). */
  fails: Record<string, RegExp>;
  /** Checks that must come out as advisories (the spec says only MAY there), with their message pattern. */
  advisories?: Record<string, RegExp>;
  /** Checks that must be skipped with this kind (our budget, credentials, ...), and their message pattern. */
  skips?: Record<string, [NonNullable<CheckResult['skipKind']>, RegExp]>;
  /** Checks that must pass: the misbehaviour stays contained (and legal input is not held against the agent). */
  passes?: string[];
  level?: Outcome;
  credentials?: Credentials;
  /**
   * A larger per-task budget for a behaviour that is legal but slow by design (e.g. one byte per write): on a loaded
   * two-core machine its stream can outlast the small corpus budget, and the tool then (rightly) skips as `tool-limit`
   * instead of judging. The behaviour under test is the framing, not our budget.
   */
  timeoutMs?: number;
  /**
   * A larger per-request budget, for the same reason: a redirect loop is 20 round trips by design (fetch's limit)
   * and, with the unit suite beside the e2e suite on two cores, a streamed request's 20 hops outlasted 3.5 s once
   * ("no answer" instead of "redirected too many times"). The behaviour under test is the loop's diagnosis.
   */
  requestTimeoutMs?: number;
  /** Through the proxy, when it differs: a refusal the proxy makes itself is an `error`, never a `fail`. */
  proxy?: { fails?: Record<string, RegExp>; errors?: Record<string, string>; level?: Outcome };
}

const NOT_JSON = /not JSON/;
const STREAMING_OK = [
  'streaming.content-type',
  'streaming.framing',
  'streaming.first-event',
  'streaming.terminal',
  'streaming.artifacts',
  'streaming.consistency',
];
const LIFECYCLE_OK = ['lifecycle.send', 'lifecycle.get', 'lifecycle.terminal', 'lifecycle.transitions'];

export const EXPECT: Record<HostileName, Expectation> = {
  // Larger than we read: our limit, not a defect; the agent is not assessed and the message says why.
  'card-50mb': { fails: {}, skips: { 'card.json': ['tool-limit', /larger than this tool reads \(5242880 bytes/] }, level: 'not-assessed' },
  // No JSON at the well-known paths: not an A2A agent as far as we can see; the card checks say what was there.
  // RFC 9110 §8.3 asks only for a Content-Type: a type other than JSON is an advisory (card.json fails the body).
  'card-yaml': { fails: { 'card.json': /not JSON/ }, advisories: { 'card.content-type': /application\/yaml/ }, level: 'not-assessed' },
  'card-html-200': { fails: { 'card.json': /looks like HTML/ }, advisories: { 'card.content-type': /text\/html/ }, level: 'not-assessed' },
  'card-invalid-utf8': { fails: { 'card.json': /not valid UTF-8/ }, passes: ['lifecycle.send'], level: 'non-conformant' },
  'card-bom': { fails: { 'card.json': /byte order mark/ }, passes: ['lifecycle.send'], level: 'non-conformant' },
  'card-nested-100k': { fails: { 'card.skills': /skills\[0\] .*not an object/ }, level: 'non-conformant' },
  'card-html-script': {
    // Provider, documentation and icon URLs are described, not required, as URLs: advisories.
    fails: {},
    advisories: { 'card.urls.other': /provider\.url="javascript:.*documentationUrl="javascript:.*iconUrl="javascript:/ },
    passes: [...LIFECYCLE_OK, 'card.required-fields', 'card.skills'],
  },
  'card-redirect-loop': {
    fails: { 'card.discovery': /redirected too many times/ },
    level: 'not-assessed',
    requestTimeoutMs: 15_000,
  },
  'rpc-invalid-json': { fails: { 'lifecycle.send': NOT_JSON, 'streaming.framing': /data is not JSON/, 'errors.shape': NOT_JSON }, level: 'non-conformant' },
  'rpc-truncated-json': { fails: { 'lifecycle.send': NOT_JSON, 'streaming.framing': /data is not JSON/ }, level: 'non-conformant' },
  'rpc-nested-100k': { fails: { 'lifecycle.send': /got array/, 'streaming.framing': /should be an object, got array/ }, level: 'non-conformant' },
  'rpc-html-200': {
    fails: { 'lifecycle.send': /not JSON \(text\/html/, 'streaming.content-type': /text\/html/, 'errors.shape': NOT_JSON },
    level: 'non-conformant',
  },
  'rpc-reset-mid-body': { fails: { 'lifecycle.send': /reset by the agent/, 'streaming.terminal': /broke off/ }, level: 'non-conformant' },
  // A send that never answers may be a long task (our budget, not judged: not assessed); an error probe that
  // never answers is a hung server (fails).
  'rpc-never-answers': {
    fails: { 'streaming.content-type': /No answer/, 'errors.invalid-json': /No answer/ },
    skips: { 'lifecycle.send': ['tool-limit', /no answer within our 5000 ms budget/] },
    level: 'not-assessed',
  },
  'rpc-drip': {
    // The stream reaches no end within the per-task timeout: the procedure's failure (Timeouts T3), not our limit.
    fails: {
      'errors.invalid-json': /Incomplete answer .*stopped sending the body/,
      'streaming.terminal': /still open without reaching the end of the task when the per-task timeout of 5 s ran out/,
    },
    skips: { 'lifecycle.send': ['tool-limit', /no answer within our 5000 ms budget/] },
    level: 'not-assessed',
  },
  'rpc-invalid-utf8': { fails: { 'lifecycle.shape': /not valid UTF-8/ }, passes: ['lifecycle.send', 'lifecycle.get'], level: 'minimal' },
  'rpc-bom': { fails: { 'lifecycle.shape': /byte order mark/ }, passes: ['lifecycle.send', 'lifecycle.get'], level: 'minimal' },
  'rpc-redirect-loop': {
    fails: { 'lifecycle.send': /redirected too many times/, 'streaming.content-type': /redirected too many times/ },
    level: 'non-conformant',
    requestTimeoutMs: 15_000,
    timeoutMs: 20_000,
  },
  'rpc-redirect-other-host': {
    fails: { 'lifecycle.send': /not JSON \(text\/html/, 'streaming.content-type': /text\/html/ },
    level: 'non-conformant',
    credentials: { kind: 'bearer', token: SECRET },
  },
  'rpc-headers-64k': {
    fails: { 'lifecycle.send': /headers are larger than HTTP clients accept/, 'streaming.content-type': /headers are larger/ },
    level: 'non-conformant',
    proxy: { fails: { 'lifecycle.send': /upstream_reset.*[Hh]eader overflow/, 'streaming.content-type': /[Hh]eader overflow/ } },
  },
  // A rate limit that outlives the polite retry is our limit to work around: nothing is judged, nothing fails.
  'rpc-429': {
    fails: {},
    skips: {
      'lifecycle.send': ['tool-limit', new RegExp(`HTTP 429 Too Many Requests \\(Retry-After: ${RETRY_AFTER_S}\\)`)],
      'streaming.content-type': ['tool-limit', /HTTP 429/],
      'errors.invalid-json': ['tool-limit', /HTTP 429/],
    },
    level: 'not-assessed',
  },
  'rpc-401-no-challenge': { fails: { 'auth.challenge': /401 without a WWW-Authenticate/ }, passes: ['auth.required'] },
  'rpc-wrong-id': {
    fails: { 'lifecycle.shape': /"id" should echo the request id/, 'streaming.framing': /"id" should echo/, 'errors.shape': /"id" should/ },
    passes: ['lifecycle.send', 'lifecycle.get'],
    level: 'minimal',
  },
  'rpc-result-and-error': {
    fails: { 'lifecycle.send': /both "result" and "error"/, 'streaming.framing': /both "result" and "error"/, 'errors.shape': /both "result" and "error"/ },
    level: 'non-conformant',
  },
  'task-id-changes': {
    fails: {
      'lifecycle.get': /returned task id "[^"]+" for "[^"]+"/,
      'lifecycle.task-id-stable': /task ids changed/,
      'streaming.consistency': /mixes task ids/,
    },
    level: 'non-conformant',
  },
  // No release forbids leaving a terminal state in words, but the conformance procedure does (Verification V3, V4):
  // "a terminal state is final" fails at MUST wherever it is seen; events after the end fail too.
  'state-backwards': {
    fails: { 'streaming.after-final': /after the final one/, 'lifecycle.transitions': /TASK_STATE_COMPLETED → TASK_STATE_WORKING/ },
    passes: ['lifecycle.send'],
    level: 'minimal',
  },
  'bad-timestamps': {
    fails: { 'lifecycle.shape': /timestamp "[A-Z][a-z]{2} [A-Z][a-z]{2} .*not an ISO 8601/, 'streaming.framing': /timestamp .*not an ISO 8601/ },
    passes: ['lifecycle.send', 'lifecycle.get'],
    level: 'minimal',
  },
  'sse-never-ends': { fails: { 'streaming.terminal': /still open when the \d+ ms budget ran out/ }, passes: LIFECYCLE_OK, level: 'partial' },
  'sse-flood': {
    fails: { 'streaming.terminal': /more than 2000 events \(our per-stream limit/ },
    passes: [...LIFECYCLE_OK, 'streaming.first-event'],
    level: 'partial',
  },
  'sse-split-every-byte': { fails: {}, passes: [...LIFECYCLE_OK, ...STREAMING_OK, 'streaming.resubscribe'], level: 'full', timeoutMs: 20_000 },
  'sse-invalid-utf8': { fails: { 'streaming.framing': /not valid UTF-8/ }, passes: LIFECYCLE_OK, level: 'partial' },
  'sse-bom-every-event': {
    fails: { 'streaming.framing': /not SSE fields .*byte order mark/, 'streaming.terminal': /without reaching a terminal/ },
    passes: LIFECYCLE_OK,
    level: 'partial',
  },
  'sse-comments-retry': { fails: {}, passes: [...LIFECYCLE_OK, ...STREAMING_OK, 'streaming.resubscribe'], level: 'full' },
  'black-hole': { fails: {}, skips: { 'card.discovery': ['tool-limit', /did not answer within the time budget/] }, level: 'not-assessed' },
};

export interface CorpusRun {
  name: HostileName;
  report?: Report;
  /** runConformance rejected (must never happen). */
  crash?: string;
  events: RunEvent[];
  wallMs: number;
  logBytes: number;
  stats: Record<string, number>;
  sideRequests: HostileKit['sideRequests'];
}

const resultsOf = (r: CorpusRun): Map<string, CheckResult> => new Map(r.report ? reportResults(r.report).map((x) => [x.id, x]) : []);

/** Runs one behaviour: starts its agent, runs the suite with the small budgets, closes the agent. */
async function runOne(name: HostileName, host: Host, extra: Partial<RunOptions> = {}): Promise<CorpusRun> {
  const agent = await startHostileAgent(name);
  const events: RunEvent[] = [];
  const started = performance.now();
  let report: Report | undefined;
  let crash: string | undefined;
  try {
    report = await runConformance(
      host,
      {
        agentUrl: agent.url,
        timeoutMs: EXPECT[name].timeoutMs ?? BUDGET.timeoutMs,
        limits: { requestTimeoutMs: EXPECT[name].requestTimeoutMs ?? BUDGET.requestTimeoutMs, streamIdleTimeoutMs: BUDGET.streamIdleTimeoutMs },
        credentials: EXPECT[name].credentials,
        ...extra,
      },
      (e) => events.push(e),
    );
  } catch (e) {
    crash = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  const wallMs = performance.now() - started;
  let logBytes = Infinity;
  try {
    logBytes = Buffer.byteLength(JSON.stringify(events));
  } catch (e) {
    crash ??= `the event log does not serialize: ${String(e)}`;
  }
  const out: CorpusRun = { name, report, crash, events, wallMs, logBytes, stats: { ...agent.kit?.stats }, sideRequests: [...(agent.kit?.sideRequests ?? [])] };
  await agent.close();
  return out;
}

/** Runs the whole corpus with at most `concurrency` runs at once (they mostly wait on sockets and timers). */
export async function runCorpus(host: () => Host, concurrency: number, names: readonly HostileName[] = HOSTILE_NAMES): Promise<Map<HostileName, CorpusRun>> {
  const out = new Map<HostileName, CorpusRun>();
  // The slow ones (silence, drips, black holes) first, so they overlap with everything else.
  const slowFirst = [...names].sort((a, b) => Number(SLOW.has(b)) - Number(SLOW.has(a)));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, slowFirst.length) }, async () => {
      while (next < slowFirst.length) {
        const name = slowFirst[next++]!;
        out.set(name, await runOne(name, host()));
      }
    }),
  );
  return out;
}

const SLOW = new Set<HostileName>(['rpc-never-answers', 'rpc-drip', 'black-hole', 'sse-never-ends', 'state-backwards']);

/** The checks of a run that did not pass, for failure messages. */
export const describeRun = (r: CorpusRun) =>
  r.report
    ? reportResults(r.report)
        .filter((x) => x.status !== 'pass' && !(x.status === 'skip' && (x.skipKind === 'not-applicable' || x.skipKind === 'precondition')))
        .map((x) => `${x.id} ${x.status}${x.skipKind ? `/${x.skipKind}` : ''}${x.proxyError ? ` [${x.proxyError}]` : ''}: ${x.message.slice(0, 200)}`)
        .concat(`level: ${r.report.conformanceLevel ?? `not assessed (${r.report.notAssessed?.reason})`}: ${r.report.levelReason.slice(0, 300)}`)
        .join('\n')
    : `crashed: ${r.crash}`;

/** Invariants of every run: it resolved, in time, with a valid report and a small serializable log. */
function invariantProblems(r: CorpusRun): string[] {
  const p: string[] = [];
  if (r.crash) p.push(`crashed: ${r.crash}`);
  if (!r.report) return p;
  const parsed = Report.safeParse(r.report);
  if (!parsed.success)
    p.push(
      `the report does not validate: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  if (r.report.runStatus !== 'completed') p.push(`runStatus ${r.report.runStatus}`);
  const bound = r.report.protocol.endpointUrl === null ? DISCOVERY_BOUND_MS : WALL_BOUND_MS;
  if (!(r.wallMs < bound)) p.push(`took ${Math.round(r.wallMs)} ms (bound ${bound} ms)`);
  if (!(r.logBytes < MAX_LOG_BYTES)) p.push(`event log of ${r.logBytes} bytes`);
  if (r.events.at(-1)?.type !== 'run-finished') p.push('the event log does not end with run-finished');
  return p;
}

/**
 * Everything wrong with a run against its expectation. `direct`: the Node host never fails by itself, so no
 * result may be `error`. `proxy`: an `error` is allowed only as a proxy-made refusal (with its code).
 */
export function judge(r: CorpusRun, mode: 'direct' | 'proxy'): string[] {
  const p = invariantProblems(r);
  if (!r.report) return p;
  const e = EXPECT[r.name];
  const results = resultsOf(r);
  const fails = mode === 'proxy' && e.proxy?.fails ? e.proxy.fails : e.fails;
  const errors = mode === 'proxy' ? (e.proxy?.errors ?? {}) : {};
  const level = mode === 'proxy' && e.proxy?.level ? e.proxy.level : e.level;
  for (const [id, pattern] of Object.entries(fails)) {
    const x = results.get(id);
    if (x?.status !== 'fail') p.push(`${id} should fail, got ${x ? `${x.status}: ${x.message}` : 'no result'}`);
    else if (!pattern.test(x.message)) p.push(`${id} fails, but its message does not match ${pattern}: ${x.message}`);
  }
  for (const [id, pattern] of Object.entries(e.advisories ?? {})) {
    const x = results.get(id);
    if (x?.status !== 'advisory') p.push(`${id} should be an advisory, got ${x ? `${x.status}: ${x.message}` : 'no result'}`);
    else if (!pattern.test(x.message)) p.push(`${id} is an advisory, but its message does not match ${pattern}: ${x.message}`);
  }
  for (const [id, [kind, pattern]] of Object.entries(e.skips ?? {})) {
    const x = results.get(id);
    if (x?.status !== 'skip' || x.skipKind !== kind)
      p.push(`${id} should skip (${kind}), got ${x ? `${x.status}${x.skipKind ? `/${x.skipKind}` : ''}: ${x.message}` : 'no result'}`);
    else if (!pattern.test(x.message)) p.push(`${id} skips, but its message does not match ${pattern}: ${x.message}`);
  }
  for (const [id, code] of Object.entries(errors)) {
    const x = results.get(id);
    if (x?.status !== 'error' || x.proxyError !== code)
      p.push(`${id} should be an error with proxy code ${code}, got ${x ? `${x.status} [${x.proxyError ?? ''}]: ${x.message}` : 'no result'}`);
  }
  for (const id of e.passes ?? []) {
    const x = results.get(id);
    if (x?.status !== 'pass') p.push(`${id} should pass (the misbehaviour must stay contained), got ${x ? `${x.status}: ${x.message}` : 'no result'}`);
  }
  const got: Outcome = r.report.conformanceLevel ?? 'not-assessed';
  if (level && got !== level) p.push(`level ${got}, expected ${level}: ${r.report.levelReason}`);
  for (const x of results.values()) {
    if (x.status === 'error' && (mode === 'direct' || !x.proxyError)) p.push(`${x.id} is an error of our tool: ${x.message}`);
    if (x.status === 'fail' && (!x.recommendation || x.message.length < 10)) p.push(`${x.id} fails without a message and a recommendation`);
  }
  // A refusal the proxy made itself never turns into a failure of the agent.
  const errorExpected = Object.keys(errors).length > 0;
  if (!errorExpected && r.report.provisional) p.push(`the verdict is provisional: ${r.report.levelReason}`);
  return p;
}
