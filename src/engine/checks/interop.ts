import { canonicalBinding } from '../card/detect';
import type { CardInterface, NormalizedCard } from '../card/normalize';
import type { Evidence, Generation } from '../model/check';
import { exchange, type HttpResult } from '../http/client';
import { PREFLIGHT_ORIGIN } from '../model/proxy';
import { Dialect, type CallOutcome } from '../protocol/dialect';
import { acceptedInputModes, buildInput } from '../protocol/input';
import { acceptedOutputModes, type ResolvedTarget } from '../runner/target';
import { isRecord } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, TIMEOUT_KNOB, toolError, toolLimit, transportVerdict, type CheckContext, type CheckDef, type Verdict } from './define';
import { authRequirement, declaresSecurity } from './errors';
import { brokenCallVerdict } from './fixtures/outcomes';
import { completedRun, primarySkill, runEvidence, runTask, skillInput, skillRuns, type TaskRun } from './fixtures/tasks';
import { needDialect } from './preconditions';


const CORS_REF = { legacy: 'Fetch Standard §3.2 CORS protocol (outside A2A)', 'v0.2': 'Fetch Standard §3.2 CORS protocol (outside A2A)', 'v0.3': 'Fetch Standard §3.2 CORS protocol (outside A2A)', 'v1.0': 'Fetch Standard §3.2 CORS protocol (outside A2A)' };

const listHas = (header: string | undefined, item: string) =>
  !!header && header.split(',').map((x) => x.trim().toLowerCase()).some((x) => x === item.toLowerCase() || (x === '*' && item.toLowerCase() !== 'authorization'));

/** Fetch: "A CORS-safelisted method is a method that is GET, HEAD, or POST": a preflight need not list them. */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

const accessControl = (h: Record<string, string>) =>
  Object.entries(h)
    .filter(([k]) => k.startsWith('access-control'))
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** Why browser readiness cannot be measured from here (a browser cannot send a preflight or set Origin by hand). */
function noPreflight(ctx: CheckContext): Verdict | undefined {
  if (ctx.http.host.preflight) return undefined;
  return skip(
    'A browser cannot send a CORS preflight by hand, and the proxy strips Origin. Run the CLI (npx a2a-interop run <url>) to measure browser readiness; in direct mode the dashboard itself proves it when the run works.',
    'precondition',
  );
}

const acaoProblem = (acao: string | undefined) => (acao === '*' || acao === PREFLIGHT_ORIGIN ? undefined : acao ? `Access-Control-Allow-Origin is "${acao}"` : 'no Access-Control-Allow-Origin');

interface PreflightOutcome {
  verdict?: Verdict;
  /** What makes the call impossible from a page on another origin. */
  problems: string[];
  /** Headers the preflight does not allow but a browser client can do without (e.g. A2A-Version, §3.6.1). */
  optionalMissing: string[];
  evidence: Evidence[];
}

/**
 * Sends a CORS preflight for `method` with `headers` and judges it as the Fetch Standard's CORS check does:
 * an ok status (200-299), Access-Control-Allow-Origin `*` or the origin, the method listed unless safelisted,
 * every non-safelisted header listed (`*` does not cover Authorization). `optional` headers are reported apart.
 */
async function preflight(ctx: CheckContext, url: string, method: string, headers: string[], optional: string[] = []): Promise<PreflightOutcome> {
  const all = [...headers, ...optional];
  const r = await ctx.http.host.preflight!({ url, origin: PREFLIGHT_ORIGIN, method, headers: all, signal: ctx.http.signal });
  if (!r.ok) {
    return { verdict: r.blame === 'tool' ? toolError(`The preflight could not be sent: ${r.error}`) : fail(`The preflight got no answer: ${r.error}`), problems: [], optionalMissing: [], evidence: [] };
  }
  const h = lower(r.headers);
  const problems: string[] = [];
  if (r.status < 200 || r.status >= 300) problems.push(`OPTIONS answered HTTP ${r.status}`);
  const origin = acaoProblem(h['access-control-allow-origin']);
  if (origin) problems.push(origin);
  if (!SAFELISTED_METHODS.has(method.toUpperCase()) && !listHas(h['access-control-allow-methods'], method)) {
    problems.push(`Access-Control-Allow-Methods ${h['access-control-allow-methods'] ? `"${h['access-control-allow-methods']}"` : 'missing'} does not allow ${method}`);
  }
  const missing = headers.filter((x) => !listHas(h['access-control-allow-headers'], x));
  if (missing.length) problems.push(`Access-Control-Allow-Headers does not allow ${missing.join(', ')}`);
  const optionalMissing = optional.filter((x) => !listHas(h['access-control-allow-headers'], x));
  const evidence: Evidence[] = [ev('preflight', `OPTIONS ${ctx.http.redactor.url(url)} (Origin ${PREFLIGHT_ORIGIN}, ${method}, headers ${all.join(', ') || 'none'}) → ${r.status}\n${accessControl(h)}`)];
  return { problems, optionalMissing, evidence };
}

/** A v1.0 client MAY send A2A-Version as a query parameter instead of a header (§3.6.1): a browser can do without it. */
const versionNote = (ctx: CheckContext) => (ctx.generation === 'v1.0' ? ['a2a-version'] : []);

async function corsCall(ctx: CheckContext, url: string | undefined, method: string, what: string): Promise<Verdict> {
  if (!url) return skip('No URL to test.', 'precondition');
  const none = noPreflight(ctx);
  if (none) return none;
  const headers = rpcHeaders(ctx);
  const o = await preflight(ctx, url, method, headers, versionNote(ctx));
  if (o.verdict) return o.verdict;
  if (o.problems.length) return fail(`A web page on another origin could not call the ${what}: ${o.problems.join('; ')}.`, o.evidence);
  if (o.optionalMissing.length) {
    return fail(
      `A web page on another origin can call the ${what} only without the A2A-Version header: Access-Control-Allow-Headers does not allow ${o.optionalMissing.join(', ')}. Browser clients must send ?A2A-Version=1.0 as a query parameter instead (v1.0 §3.6.1 allows it).`,
      o.evidence,
      'Add A2A-Version (and A2A-Extensions) to Access-Control-Allow-Headers so browser clients can send the header like every other client.',
    );
  }
  return pass(`The ${what} answers CORS preflights for ${method} with ${[...headers, ...versionNote(ctx)].join(', ') || 'no extra headers'}.`, o.evidence);
}

/**
 * The card is read with a plain GET, a simple request (no preflight) unless a non-safelisted header is added: it is
 * browser-readable when the GET's answer carries Access-Control-Allow-Origin. Before v1.0 no client adds a header;
 * v1.0 clients may add A2A-Version (then a preflight is needed) or pass it as a query parameter (§3.6.1).
 */
async function corsCard(ctx: CheckContext, url: string): Promise<Verdict> {
  const none = noPreflight(ctx);
  if (none) return none;
  const evidence: Evidence[] = [];
  let simple: string | undefined;
  if (ctx.http.host.transport === 'proxy') {
    // The proxy strips Origin from requests; its diagnostic sends an OPTIONS instead: the server's CORS answer for a
    // GET from the origin, as close as we can get from here.
    const o = await preflight(ctx, url, 'GET', []);
    if (o.verdict) return o.verdict;
    evidence.push(...o.evidence, ev('note', 'Measured with an OPTIONS request for GET (the proxy cannot send a GET with Origin); a browser sends no preflight for a plain GET.'));
    simple = o.problems.length ? o.problems.join('; ') : undefined;
  } else {
    const r = await exchange(ctx.http, { method: 'GET', url, headers: { Origin: PREFLIGHT_ORIGIN, Accept: 'application/json' }, lane: ctx.lane('cors card'), checkId: ctx.checkId });
    if (!r.responded) return transportVerdict(r, 'reading the card with an Origin header');
    const acao = r.headers.get('access-control-allow-origin') ?? undefined;
    evidence.push(ev('GET with Origin', `GET ${ctx.http.redactor.url(url)} (Origin ${PREFLIGHT_ORIGIN}) → ${r.status}\naccess-control-allow-origin: ${acao ?? '(none)'}`, { exchangeId: r.exchangeId }));
    simple = [r.status < 200 || r.status >= 300 ? `the GET answered HTTP ${r.status}` : undefined, acaoProblem(acao)].filter(Boolean).join('; ') || undefined;
  }
  if (ctx.generation !== 'v1.0') {
    return simple ? fail(`A web page on another origin could not read the agent card: ${simple}.`, evidence) : pass('The agent card is readable from another origin (a plain GET; no preflight is involved).', evidence);
  }
  const withHeader = await preflight(ctx, url, 'GET', ['a2a-version']);
  if (withHeader.verdict) return withHeader.verdict;
  evidence.push(...withHeader.evidence);
  const headerOk = !withHeader.problems.length;
  if (simple && !headerOk) return fail(`A web page on another origin could not read the agent card, with or without the A2A-Version header: ${simple}; with the header: ${withHeader.problems.join('; ')}.`, evidence);
  if (simple) return fail(`A web page on another origin can read the agent card only when it sends the A2A-Version header (the plain GET fails: ${simple}).`, evidence);
  if (!headerOk) {
    return fail(
      `The agent card is readable from another origin without the A2A-Version header (as a query parameter, v1.0 §3.6.1), but not with it: ${withHeader.problems.join('; ')}.`,
      evidence,
      'Add A2A-Version to Access-Control-Allow-Headers on the card route so browser clients can send the header like every other client.',
    );
  }
  return pass('The agent card is readable from another origin, both as a plain GET (A2A-Version as a query parameter) and with the A2A-Version header.', evidence);
}

const CORS_REC = 'Answer OPTIONS preflights on the card, RPC and stream endpoints with Access-Control-Allow-Origin (your dashboard origins or *), Access-Control-Allow-Methods (GET, POST) and Access-Control-Allow-Headers (Content-Type, A2A-Version, A2A-Extensions, Authorization and your API-key header), and put Access-Control-Allow-Origin on the answers too. Express: the cors package; Starlette: CORSMiddleware.';

/** Headers a browser client must send to the RPC and stream endpoints (A2A-Version is reported apart, see versionNote). */
function rpcHeaders(ctx: CheckContext): string[] {
  return ['content-type', ...Object.keys(ctx.authHeaders).map((k) => k.toLowerCase())];
}

/** The URL of a v0.3 HTTP+JSON base: the "/v1" prefix is added unless the declared URL already ends in it. */
const restPrefix = (url: string, g: Generation) => (g === 'v1.0' || /\/v1$/.test(url.replace(/\/+$/, '')) ? '' : '/v1');

function rpcUrl(ctx: CheckContext, op: 'send' | 'stream'): string | undefined {
  const d = ctx.dialect;
  if (!d) return undefined;
  if (!d.isRest) return d.endpointUrl;
  const base = d.endpointUrl.replace(/\/+$/, '');
  return `${base}${restPrefix(base, d.generation)}/message:${op}`;
}

function generationOf(i: CardInterface, fallback: Generation): Generation {
  const v = i.protocolVersion ?? '';
  if (/^1\./.test(v)) return 'v1.0';
  if (/^0\.3/.test(v)) return 'v0.3';
  if (/^0\.2/.test(v)) return 'v0.2';
  return fallback;
}

/** The card's default input modes accept text (none declared means text, as this tool's inputs assume). */
const acceptsText = (card: NormalizedCard) => buildInput('x', acceptedInputModes(undefined, card.defaultInputModes)).parts[0]?.kind === 'text';

function peerText(peer: ResolvedTarget): string {
  return peer.card.skills.flatMap((s) => s.examples).find((e) => e.trim()) ?? 'Hello from a2a-interop: this is a two-agent interop test.';
}

/** Text an agent produced: a Message reply's text, else a finished task's artifact text, else its status message. */
function outputText(r: TaskRun | undefined): string | undefined {
  if (r?.outcome === 'message' && r.send.kind === 'message') return r.send.message.text.trim().slice(0, 2000) || undefined;
  const t = r?.final?.raw;
  if (!isRecord(t)) return undefined;
  const texts: string[] = [];
  const collect = (parts: unknown) => {
    if (Array.isArray(parts)) for (const p of parts) if (isRecord(p) && typeof p.text === 'string') texts.push(p.text);
  };
  if (Array.isArray(t.artifacts)) for (const a of t.artifacts) if (isRecord(a)) collect(a.parts ?? a.content);
  if (!texts.length && isRecord(t.status) && isRecord(t.status.message)) collect(t.status.message.parts ?? t.status.message.content);
  const s = texts.join('\n').trim();
  return s ? s.slice(0, 2000) : undefined;
}

/** The answer carries an agent card: a 2xx whose body (or JSON-RPC result) is an object with a name. */
function servesCard(r: HttpResult): boolean {
  if (r.status >= 300) return false;
  const j = r.json();
  const v = j.ok && isRecord(j.value) ? (isRecord(j.value.result) ? j.value.result : j.value) : undefined;
  return !!v && typeof v.name === 'string';
}

function withPeer(ctx: CheckContext, body: (peer: ResolvedTarget) => Verdict | Promise<Verdict>): Verdict | Promise<Verdict> {
  if (!ctx.peer) return skip('No peer agent was given (enter a "Peer agent URL" to run two-agent checks).', 'not-applicable');
  return body(ctx.peer);
}

/** Two-agent checks that call both agents: the peer's dialect and a context for its tasks. */
function withBothCallable(
  ctx: CheckContext,
  body: (peer: ResolvedTarget, agent: Dialect, peerDialect: Dialect, peerCtx: CheckContext) => Promise<Verdict>,
): Verdict | Promise<Verdict> {
  return withPeer(ctx, (peer) => {
    if (!peer.dialect || !ctx.dialect) return skip('One of the two agents cannot be called.', 'precondition');
    return body(peer, ctx.dialect, peer.dialect, { ...ctx, card: peer.card, authHeaders: {}, authQuery: {} });
  });
}

/** Our cap on one task over another interface (the per-task budget, at most this). */
const BINDING_BUDGET_MS = 20_000;

/** The interface is not served at all: 404/405, method not found, UNIMPLEMENTED. */
const notServed = (o: CallOutcome) => o.http.status === 404 || o.http.status === 405 || (o.kind === 'error' && (o.error.code === -32601 || o.error.status === 'UNIMPLEMENTED'));

/** An error's meaning across bindings (a JSON-RPC code and its HTTP+JSON mapping compare equal). */
function errorCategory(o: CallOutcome): string {
  if (o.kind !== 'error') return o.kind;
  const e = o.error;
  if (e.code === -32005 || e.reason === 'CONTENT_TYPE_NOT_SUPPORTED' || o.http.status === 415) return 'content-type';
  if (e.code === -32602 || e.status === 'INVALID_ARGUMENT' || (e.code === undefined && o.http.status === 400 && !e.reason)) return 'invalid-params';
  if (e.code === -32001 || e.reason === 'TASK_NOT_FOUND') return 'task-not-found';
  if (e.code === -32004 || e.reason === 'UNSUPPORTED_OPERATION') return 'unsupported';
  if (e.code === -32603 || o.http.status >= 500 || e.status === 'INTERNAL') return 'internal';
  return `${e.code ?? e.reason ?? e.status ?? o.http.status}`;
}

const describeError = (o: CallOutcome) => (o.kind === 'error' ? `${o.error.code ?? o.error.reason ?? o.error.status ?? `HTTP ${o.http.status}`}${o.error.message ? ` "${o.error.message.slice(0, 80)}"` : ''}` : o.kind);

interface ExtendedCardLocation {
  label: string;
  call(anonymous: boolean): Promise<HttpResult>;
}

/** Where the generation says the extended card is; v0.2.6 §7.10 gives a relative GET and a JSON-RPC method. */
function extendedCardLocations(ctx: CheckContext, d: Dialect, lane: string): ExtendedCardLocation[] {
  if (d.isRest) {
    const path = d.generation === 'v1.0' ? '/extendedAgentCard' : '/card';
    return [{ label: d.generation === 'v1.0' ? 'GET /extendedAgentCard' : 'GET /v1/card', call: (anonymous) => d.rawRest(ctx.http, 'GET', path, undefined, { lane, checkId: ctx.checkId, anonymous }) }];
  }
  if (d.generation !== 'v0.2') {
    const method = d.generation === 'v1.0' ? 'GetExtendedAgentCard' : 'agent/getAuthenticatedExtendedCard';
    return [{ label: method, call: async (anonymous) => (await d.rpc(ctx.http, method, {}, { lane, checkId: ctx.checkId, anonymous })).http }];
  }
  const base = d.endpointUrl;
  const dir = base.endsWith('/') ? base : `${base}/`;
  // "{AgentCard.url}/../agent/authenticatedExtendedCard" read as a path (the §7.10 example), then as a URL
  // reference, then at the origin (a2a-python), then under the URL.
  const urls = [
    new URL('../agent/authenticatedExtendedCard', dir).toString(),
    new URL('../agent/authenticatedExtendedCard', base).toString(),
    new URL('/agent/authenticatedExtendedCard', base).toString(),
    new URL('agent/authenticatedExtendedCard', dir).toString(),
  ].filter((u, i, all) => all.indexOf(u) === i);
  const gets: ExtendedCardLocation[] = urls.map((url) => ({
    label: `GET ${ctx.http.redactor.url(url)}`,
    call: (anonymous) => exchange(ctx.http, { method: 'GET', url: d.url(url, { lane, anonymous }), headers: anonymous ? {} : ctx.authHeaders, lane, checkId: ctx.checkId }),
  }));
  return [...gets, { label: 'JSON-RPC agent/authenticatedExtendedCard', call: async (anonymous) => (await d.rpc(ctx.http, 'agent/authenticatedExtendedCard', {}, { lane, checkId: ctx.checkId, anonymous })).http }];
}

/** The JSON-RPC error (or REST google.rpc.Status) in an answer, if any. */
function errorBody(r: HttpResult): { code?: unknown; reason?: string; status?: unknown } | undefined {
  const j = r.json();
  if (!j.ok || !isRecord(j.value) || !isRecord(j.value.error)) return undefined;
  const e = j.value.error;
  const details = Array.isArray(e.details) ? e.details : Array.isArray(e.data) ? e.data : [];
  const info = details.find((x) => isRecord(x) && typeof x.reason === 'string');
  return { code: e.code, status: e.status, reason: isRecord(info) ? String(info.reason) : undefined };
}

const errorOf = (r: HttpResult) => {
  const e = errorBody(r);
  return e ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined).join(' ')}` : `HTTP ${r.status}`;
};

/** Nothing at this location: 404/405 or JSON-RPC method not found. */
const absent = (r: HttpResult) => r.status === 404 || r.status === 405 || errorBody(r)?.code === -32601;

/** "No extended card configured": -32007 (v0.3 AuthenticatedExtendedCardNotConfiguredError, v1.0 JSON-RPC), v1.0 REST reason. */
const notConfigured = (r: HttpResult) => {
  const e = errorBody(r);
  return !!e && (e.code === -32007 || e.reason === 'EXTENDED_AGENT_CARD_NOT_CONFIGURED' || e.reason === 'AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED');
};

export const interopChecks: CheckDef[] = [
  defineCheck({
    id: 'interop.cors.card',
    title: 'Browser readiness: the card answers CORS preflights',
    category: 'interop',
    level: 'MAY',
    tier: 'advisory',
    phase: 'suite',
    specRefs: CORS_REF,
    recommendation: CORS_REC,
    run: (ctx) => (ctx.discovery.cardUrl ? corsCard(ctx, ctx.discovery.cardUrl) : skip('No card URL.', 'precondition')),
  }),
  defineCheck({
    id: 'interop.cors.rpc',
    title: 'Browser readiness: the RPC endpoint answers CORS preflights',
    category: 'interop',
    level: 'MAY',
    tier: 'advisory',
    phase: 'suite',
    specRefs: CORS_REF,
    recommendation: CORS_REC,
    run: (ctx) => needDialect(ctx) ?? corsCall(ctx, rpcUrl(ctx, 'send'), 'POST', 'RPC endpoint'),
  }),
  defineCheck({
    id: 'interop.cors.stream',
    title: 'Browser readiness: the streaming endpoint answers CORS preflights',
    category: 'interop',
    level: 'MAY',
    tier: 'advisory',
    phase: 'suite',
    specRefs: CORS_REF,
    recommendation: CORS_REC,
    run: (ctx) => {
      if (!ctx.card.capabilities.streaming) return skip('The card does not declare streaming.', 'not-applicable');
      return needDialect(ctx) ?? corsCall(ctx, rpcUrl(ctx, 'stream'), 'POST', 'streaming endpoint');
    },
  }),
  defineCheck({
    id: 'interop.bindings',
    title: 'Every other interface the card declares answers a basic send and get',
    category: 'interop',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: {
      'v0.3': 'v0.3.0 §5.6.2 Additional Interfaces, §3.4.1 Functional Equivalence',
      'v1.0': 'v1.0.1 §8.3.1 (each interface MUST accurately declare its transport and URL), §5.1 Functional Equivalence',
    },
    recommendation: 'Serve every interface you declare, at the URL and with the binding and protocol version you declare; drop interfaces you do not serve. With @a2a-js/sdk, mount restHandler/jsonRpcHandler at exactly the declared paths, and enable legacyCompat if you list protocolVersion 0.3 interfaces.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const sel = ctx.detection.selected;
      const others = ctx.card.interfaces.filter((i) => {
        if (i === sel || (sel && i.url === sel.url && i.binding === sel.binding && i.protocolVersion === sel.protocolVersion)) return false;
        if (ctx.generation === 'v1.0' && i.source !== 'supportedInterfaces') return false;
        const b = canonicalBinding(String(i.binding));
        return (b === 'JSONRPC' || b === 'HTTP+JSON') && /^https?:\/\//.test(i.url);
      });
      if (!others.length) return skip('The card declares a single testable interface.', 'not-applicable');
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      const notes: string[] = [];
      // The main interface's answer to the same input, to compare an error with (functional equivalence means the
      // same answer, not necessarily a task).
      const main = async () => (await skillRuns(ctx)).find((r) => r.skillId === primarySkill(ctx)) ?? (await skillRuns(ctx))[0];
      for (const i of others.slice(0, 6)) {
        const g = generationOf(i, ctx.generation);
        const binding = canonicalBinding(String(i.binding))!;
        // A v0.3 HTTP+JSON URL that already ends in /v1 (the v0.3 schema's own example) is the prefix itself.
        const url = g === 'v0.3' && binding === 'HTTP+JSON' && !restPrefix(i.url, g) ? i.url.replace(/\/+$/, '').replace(/\/v1$/, '') : i.url;
        const d = new Dialect({
          generation: g,
          binding,
          endpointUrl: url,
          tenant: i.tenant || undefined,
          authHeaders: ctx.authHeaders,
          authQuery: ctx.authQuery,
          acceptedOutputModes: acceptedOutputModes(ctx.card),
          uuid: ctx.uuid,
        });
        const label = `${i.binding} ${g} ${ctx.http.redactor.url(i.url)}`;
        const input = skillInput(ctx, primarySkill(ctx));
        const run = await runTask({ ...ctx, taskTimeoutMs: Math.min(ctx.taskTimeoutMs, BINDING_BUDGET_MS) }, d, { ...input, input, lane: ctx.lane(`binding ${i.binding} ${g}`) });
        evidence.push(runEvidence(run));
        if (run.outcome === 'timeout') notes.push(`${label} answered send; the task did not settle within our ${Math.min(ctx.taskTimeoutMs, BINDING_BUDGET_MS)} ms cap`);
        if (run.outcome !== 'failed-call' && run.outcome !== 'no-task') continue;
        const broken = run.brokenCall ?? run.send;
        const v = brokenCallVerdict(ctx, broken, label);
        if (v.status === 'skip' || v.status === 'error') return v;
        if (broken.kind === 'error' && !notServed(broken)) {
          const m = await main();
          const mainBroken = m && (m.outcome === 'failed-call' || m.outcome === 'no-task') ? (m.brokenCall ?? m.send) : undefined;
          if (mainBroken?.kind === 'error' && errorCategory(mainBroken) === errorCategory(broken)) {
            notes.push(`${label} refused the input with ${describeError(broken)}, as the main interface did (${describeError(mainBroken)}): the same answer`);
            continue;
          }
          problems.push(`${label}: ${v.message}${m ? ` The main interface ${mainBroken ? `answered ${mainBroken.kind === 'error' ? describeError(mainBroken) : mainBroken.kind}` : `ran the same input to ${m.outcome}`}.` : ''}`);
          continue;
        }
        problems.push(`${label}: ${v.message}`);
      }
      const tail = notes.length ? ` (${notes.join('; ')})` : '';
      return problems.length ? fail(`${problems.length} of ${others.length} other interface(s) do not work like the main one: ${problems.join(' | ')}${tail}`, evidence) : pass(`${others.length} other interface(s) answer send and get like the main one${tail}.`, evidence);
    },
  }),
  defineCheck({
    id: 'card.extended',
    title: 'The extended agent card, when declared, is served to authenticated clients only',
    category: 'agent-card',
    level: 'SHOULD',
    // A feature the card opts into, judged by calling the agent: not part of "the card is valid".
    tier: 'optional',
    phase: 'suite',
    specRefs: {
      'v0.2': 'v0.2.6 §5.5 supportsAuthenticatedExtendedCard, §7.10',
      'v0.3': 'v0.3.0 §7.10 agent/getAuthenticatedExtendedCard',
      'v1.0': 'v1.0.1 §3.1.11 Get Extended Agent Card, §13.3',
    },
    recommendation: 'Serve the extended card only to authenticated clients (401 with WWW-Authenticate otherwise); v1.0: GetExtendedAgentCard / GET /extendedAgentCard, v0.3: agent/getAuthenticatedExtendedCard / GET /v1/card. With no extended card configured, answer ExtendedAgentCardNotConfiguredError (-32007).',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const raw = ctx.raw as Record<string, unknown>;
      const declared = ctx.generation === 'v1.0' ? ctx.card.capabilities.extendedAgentCard : raw.supportsAuthenticatedExtendedCard === true;
      if (!declared) return skip('The card does not declare an extended card.', 'not-applicable');
      const d = ctx.dialect!;
      const lane = ctx.lane('extended card');
      const locations = extendedCardLocations(ctx, d, lane);
      const evidence: Evidence[] = [];
      // v0.2.6 §7.10 names the location two ways (a GET "{url}/../agent/authenticatedExtendedCard", and a JSON-RPC
      // method); the first location that exists (answers anything but not-found) is the one judged.
      let chosen: ExtendedCardLocation | undefined;
      let anon: HttpResult | undefined;
      for (const loc of locations) {
        const r = await loc.call(true);
        if (!r.responded) return transportVerdict(r, 'fetching the extended card');
        evidence.push(exchangeEvidence(r, `${loc.label} without credentials`));
        if (!absent(r)) {
          chosen = loc;
          anon = r;
          break;
        }
      }
      if (chosen && anon && servesCard(anon)) {
        // v1.0 §13.3: the operation MUST require authentication. v0.2/v0.3 §4.4: authenticate every request per the
        // card's declared requirements (card-level `security`).
        if (ctx.generation === 'v1.0' && declaresSecurity(ctx)) return fail(`The extended card was served without credentials (${chosen.label}); v1.0 §13.3: the operation MUST require authentication.`, evidence);
        if (ctx.generation !== 'v1.0' && authRequirement(ctx).required) return fail(`The extended card was served without credentials (${chosen.label}), although the card requires authentication: ${authRequirement(ctx).why}`, evidence);
        if (ctx.generation === 'v1.0') {
          return { status: 'fail', advisory: 'The card declares no security scheme, so a client has nothing to authenticate with.', message: `The extended card was served without credentials (${chosen.label}); v1.0 §13.3 says the operation MUST require authentication, but the card declares no scheme.`, evidence };
        }
        return pass(`The extended card was served without credentials, which the card allows: ${authRequirement(ctx).why}`, evidence);
      }
      if (chosen && anon && notConfigured(anon)) {
        return {
          status: 'fail',
          advisory: 'No extended card is configured, so nothing was exposed; the order of the authentication and configuration checks is not specified.',
          message: `Without credentials the agent answered that no extended card is configured (${chosen.label}, ${errorOf(anon)}) instead of asking for authentication.`,
          evidence,
        };
      }
      const refusedAnon = !!anon && (anon.status === 401 || anon.status === 403);
      if (ctx.credentials.kind === 'none') {
        return refusedAnon ? pass(`Refused without credentials (HTTP ${anon!.status}); give credentials to check it is served.`, evidence) : skip('No credentials given, and the agent did not refuse the anonymous request.', 'precondition', evidence);
      }
      const tried: string[] = [];
      for (const loc of chosen ? [chosen] : locations) {
        const r = await loc.call(false);
        if (!r.responded) return transportVerdict(r, 'fetching the extended card with credentials');
        evidence.push(exchangeEvidence(r, `${loc.label} with credentials`));
        tried.push(`${loc.label}: ${errorOf(r)}`);
        if (servesCard(r)) return pass(`The extended card is served to authenticated clients (${loc.label}).`, evidence);
        if (notConfigured(r)) return pass(`The agent answered that no extended card is configured (${errorOf(r)}), a defined answer (${ctx.generation === 'v1.0' ? 'ExtendedAgentCardNotConfiguredError, v1.0 §13.3' : 'AuthenticatedExtendedCardNotConfiguredError -32007'}).`, evidence);
        if (r.status === 401 || r.status === 403) {
          return skip(
            r.status === 403
              ? `The agent refused the credentials given for the extended card (HTTP 403: authenticated, not authorized). Use credentials allowed to read it.`
              : 'The agent refused the credentials given for the extended card (HTTP 401). Check they are valid and sent where the card says.',
            'credentials',
            evidence,
          );
        }
      }
      const ambiguous = ctx.generation === 'v0.2' && !chosen;
      return {
        status: 'fail',
        advisory: ambiguous
          ? 'v0.2.6 §7.10 names the location two ways ("{AgentCard.url}/../agent/authenticatedExtendedCard" and a JSON-RPC method), so not finding it may be ours.'
          : 'The card advertises an extended card that is not served; no sentence requires more than the declaration.',
        message: `With credentials the extended card was not returned (${tried.join('; ')}).`,
        evidence,
      };
    },
  }),
  defineCheck({
    id: 'interop.peer.card',
    title: 'Two agents: the peer agent card is discoverable and usable',
    category: 'interop',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: { legacy: 'seed procedure 5.5 (agent A can discover agent B)', 'v0.2': 'v0.2.6 §5 Agent Discovery', 'v0.3': 'v0.3.0 §5 Agent Discovery', 'v1.0': 'v1.0.1 §8 Agent Discovery' },
    recommendation: 'Make the peer agent serve a valid card at its well-known URI (run this tool on the peer alone to see its card checks).',
    run: (ctx) =>
      withPeer(ctx, (peer) => {
        if (!peer.discovery.response || !isRecord(peer.raw)) {
          return fail(
            `The peer card could not be read at the recommended well-known paths (${peer.info.error ?? 'no JSON object'}); the other two-agent checks need it. A card available only by direct configuration is allowed (v1.0 §8.2): give the peer's card URL.`,
            peer.discovery.attempts.map((a) => ev(a.url, String(a.status ?? 'no answer'))),
          );
        }
        if (!peer.dialect) return fail(`The peer card declares no testable interface (${peer.detection.untestable ?? 'none'}).`);
        return pass(`Peer "${peer.card.name}" is ${peer.detection.generation} over ${peer.detection.binding}.`, peer.detection.evidence.map((e) => ev('peer detection', e)));
      }),
  }),
  defineCheck({
    id: 'interop.peer.common',
    title: 'Two agents: they share a protocol version and binding, so each can call the other',
    category: 'interop',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v0.3': 'v0.3.0 §5.6.3 Client Transport Selection', 'v1.0': 'v1.0.1 §8.3.2 Client Protocol Selection, §3.6 Versioning', legacy: 'seed procedure 5.5', 'v0.2': 'v0.2.6 §5.5' },
    recommendation: 'Give both agents at least one common (protocol version, binding) interface, e.g. JSON-RPC 1.0, or add a v0.3 compatibility interface to the newer one (@a2a-js/sdk legacyCompat).',
    run: (ctx) =>
      withPeer(ctx, (peer) => {
        const offers = (t: { card: { interfaces: CardInterface[] }; detection: { generation: Generation } }) =>
          new Set(t.card.interfaces.map((i) => `${generationOf(i, t.detection.generation).replace(/^v/, '').split('.')[0] === '1' ? '1.0' : generationOf(i, t.detection.generation)} ${canonicalBinding(String(i.binding)) ?? i.binding}`));
        const a = offers(ctx);
        const b = offers(peer);
        const common = [...a].filter((x) => b.has(x));
        const evidence = [ev('agent offers', [...a].join(', ')), ev('peer offers', [...b].join(', '))];
        return common.length
          ? pass(`Common: ${common.join(', ')}.`, evidence)
          : fail('The cards declare no common (protocol version, binding) pair. Clients that speak several versions or bindings (e.g. an SDK with legacy compatibility) may still connect them; nothing requires two agents to share one.', evidence);
      }),
  }),
  defineCheck({
    id: 'interop.peer.concurrent',
    title: 'Two agents: concurrent tasks on both complete without interference',
    category: 'interop',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: { legacy: 'seed procedure 5.5 (concurrent tasks)', 'v0.2': 'v0.2.6 §6.1', 'v0.3': 'v0.3.0 §6.1', 'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics' },
    recommendation: 'Keep per-task state keyed by task id and never share mutable state between requests; generate unique task ids (UUIDs).',
    run: (ctx) =>
      withBothCallable(ctx, async (peer, ad, pd, peerCtx) => {
        const [a1, a2, b1, b2] = await Promise.all([
          runTask(ctx, ad, { ...skillInput(ctx, primarySkill(ctx)), lane: ctx.lane('agent concurrent A') }),
          runTask(ctx, ad, { ...skillInput(ctx, primarySkill(ctx)), lane: ctx.lane('agent concurrent B') }),
          runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer concurrent A') }),
          runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer concurrent B') }),
        ]);
        const runs = [a1, a2, b1, b2];
        const evidence = runs.map(runEvidence);
        // Task ids are unique per agent (v1.0 §3.4.2 "Agents MUST generate a unique taskId for each new task they
        // create"): two agents that both number their tasks 1, 2, … are conforming.
        const dupOf = (xs: TaskRun[]) => {
          const ids = xs.map((r) => r.final?.id).filter((x): x is string => !!x);
          return new Set(ids).size < ids.length ? ids : undefined;
        };
        const agentDup = dupOf([a1, a2]);
        if (agentDup) return fail(`Two concurrent tasks of the agent share the id ${agentDup[0]}: task ids MUST be unique per agent.`, evidence);
        const peerDup = dupOf([b1, b2]);
        if (peerDup) {
          return { status: 'fail', advisory: 'The duplicate is on the peer, not on the agent under test.', message: `Two concurrent tasks of the peer share the id ${peerDup[0]} (run this tool on the peer alone to judge it).`, evidence };
        }
        const broken = runs.filter((r) => r.outcome === 'failed-call' || r.outcome === 'no-task');
        const verdicts = broken.map((r) => brokenCallVerdict(r === a1 || r === a2 ? ctx : peerCtx, r.brokenCall ?? r.send, r.lane));
        // A rate limit that outlived the polite retry is our limit (brokenCallVerdict says so), not a finding.
        const limited = verdicts.filter((v) => v.status === 'skip' || v.status === 'error');
        if (broken.length && limited.length === broken.length) return limited[0]!;
        if (broken.length) {
          // A crash of the agent under test is always reported; the peer's are the peer's.
          const crash = broken.some((r) => {
            const c = r.brokenCall ?? r.send;
            return (r === a1 || r === a2) && (c.kind === 'transport' || c.http.status >= 500);
          });
          return {
            status: 'fail',
            critical: crash,
            advisory: 'A robustness finding: no sentence requires an agent to serve concurrent requests (a 429 or 503 under load is allowed).',
            message: `${broken.length} of 4 concurrent task(s) failed: ${verdicts.map((v) => v.message).join('; ')}.`,
            evidence,
          };
        }
        const slow = runs.filter((r) => r.outcome === 'timeout');
        if (slow.length) return toolLimit(`${slow.length} of 4 concurrent task(s) did not settle within our ${ctx.taskTimeoutMs} ms budget (${slow.map((r) => r.lane).join(', ')}); ids so far are distinct per agent. To give them more time, ${TIMEOUT_KNOB}.`, evidence);
        return pass('4 concurrent tasks (2 per agent) settled, with distinct ids per agent.', evidence);
      }),
  }),
  defineCheck({
    id: 'interop.peer.relay',
    title: 'Two agents: each accepts the other\'s output as input (A → B and B → A)',
    category: 'interop',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { legacy: 'seed procedure 5.5 (A sends a task to B, B to A)', 'v0.2': 'v0.2.6 §6.4 Message, §6.7 Artifact', 'v0.3': 'v0.3.0 §6.4, §6.7', 'v1.0': 'v1.0.1 §3.7 Messages and Artifacts' },
    recommendation: 'Produce plain text (or declared media types) in artifacts and accept the media types you declare in defaultInputModes, so an agent can hand its result to another.',
    run: (ctx) =>
      withBothCallable(ctx, async (peer, ad, pd, peerCtx) => {
        const aOut = outputText(await completedRun(ctx)) ?? outputText((await skillRuns(ctx)).find((r) => outputText(r)));
        const bRun = await runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer task') });
        const bOut = outputText(bRun);
        if (!aOut || !bOut) return skip(`No text output to relay (${!aOut ? 'agent' : 'peer'} produced none).`, 'precondition', [runEvidence(bRun)]);
        // An agent may refuse media types it does not declare (ContentTypeNotSupported): relay text only to agents
        // whose defaultInputModes accept text.
        const noText = [!acceptsText(peer.card) && 'the peer', !acceptsText(ctx.card) && 'the agent'].filter(Boolean);
        if (noText.length) return skip(`${noText.join(' and ')} declare${noText.length === 1 ? 's' : ''} no text input mode (defaultInputModes), so relaying text output does not apply.`, 'not-applicable');
        const toB = await runTask(peerCtx, pd, { text: aOut, lane: ctx.lane('relay A→B') });
        const toA = await runTask(ctx, ad, { text: bOut, lane: ctx.lane('relay B→A') });
        const evidence = [runEvidence(toB), runEvidence(toA)];
        const problems = [toB, toA].filter((r) => r.outcome === 'failed-call' || r.outcome === 'no-task').map((r) => `${r.lane}: ${brokenCallVerdict(ctx, r.brokenCall ?? r.send, r.lane).message}`);
        return problems.length
          ? fail(`Relay failed: ${problems.join('; ')}. An agent may refuse input it does not support or that does not fit its skills; this is an interoperability note, not a requirement.`, evidence)
          : pass('Each agent accepted the other\'s output.', evidence);
      }),
  }),
];
