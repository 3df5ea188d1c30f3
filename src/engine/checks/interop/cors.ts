/**
 * Browser readiness (advisory): the card, RPC and stream endpoints answer CORS preflights as the Fetch Standard's
 * CORS check requires. No A2A release mentions CORS: these checks never lower the level.
 */
import { exchange } from '../../http/client';
import type { Evidence } from '../../model/check';
import { PREFLIGHT_ORIGIN } from '../../model/proxy';
import type { Host } from '../../ports';
import type { CheckContext } from '../context';
import { defineCheck, ev, fail, pass, skip, toolError, transportVerdict, type Verdict } from '../define';

const CORS_REF = {
  legacy: 'Fetch Standard §3.2 CORS protocol (outside A2A)',
  'v0.2': 'Fetch Standard §3.2 CORS protocol (outside A2A)',
  'v0.3': 'Fetch Standard §3.2 CORS protocol (outside A2A)',
  'v1.0': 'Fetch Standard §3.2 CORS protocol (outside A2A)',
};

const listHas = (header: string | undefined, item: string) =>
  !!header &&
  header
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .some((x) => x === item.toLowerCase() || (x === '*' && item.toLowerCase() !== 'authorization'));

/** Fetch: "A CORS-safelisted method is a method that is GET, HEAD, or POST": a preflight need not list them. */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

const accessControl = (h: Record<string, string>) =>
  Object.entries(h)
    .filter(([k]) => k.startsWith('access-control'))
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** A host that can send a CORS preflight by hand (not a browser). */
type PreflightHost = Host & Required<Pick<Host, 'preflight'>>;
const canPreflight = (host: Host): host is PreflightHost => !!host.preflight;

/** Why browser readiness cannot be measured from here (a browser cannot send a preflight or set Origin by hand). */
function noPreflight(): Verdict {
  return skip(
    'A browser cannot send a CORS preflight by hand, and the proxy strips Origin. Run the CLI (a2a-interop run <url>; installed from a git URL or a tarball, see the README) to measure browser readiness; in direct mode the dashboard itself proves it when the run works.',
    'precondition',
  );
}

const acaoProblem = (acao: string | undefined) =>
  acao === '*' || acao === PREFLIGHT_ORIGIN ? undefined : acao ? `Access-Control-Allow-Origin is "${acao}"` : 'no Access-Control-Allow-Origin';

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
async function preflight(
  ctx: CheckContext,
  host: PreflightHost,
  url: string,
  method: string,
  headers: string[],
  optional: string[] = [],
): Promise<PreflightOutcome> {
  const all = [...headers, ...optional];
  const r = await host.preflight({ url, origin: PREFLIGHT_ORIGIN, method, headers: all, signal: ctx.http.signal });
  if (!r.ok) {
    return {
      verdict: r.blame === 'tool' ? toolError(`The preflight could not be sent: ${r.error}`) : fail(`The preflight got no answer: ${r.error}`),
      problems: [],
      optionalMissing: [],
      evidence: [],
    };
  }
  const h = lower(r.headers);
  const problems: string[] = [];
  if (r.status < 200 || r.status >= 300) problems.push(`OPTIONS answered HTTP ${r.status}`);
  const origin = acaoProblem(h['access-control-allow-origin']);
  if (origin) problems.push(origin);
  if (!SAFELISTED_METHODS.has(method.toUpperCase()) && !listHas(h['access-control-allow-methods'], method)) {
    problems.push(
      `Access-Control-Allow-Methods ${h['access-control-allow-methods'] ? `"${h['access-control-allow-methods']}"` : 'missing'} does not allow ${method}`,
    );
  }
  const missing = headers.filter((x) => !listHas(h['access-control-allow-headers'], x));
  if (missing.length) problems.push(`Access-Control-Allow-Headers does not allow ${missing.join(', ')}`);
  const optionalMissing = optional.filter((x) => !listHas(h['access-control-allow-headers'], x));
  const evidence: Evidence[] = [
    ev(
      'preflight',
      `OPTIONS ${ctx.http.redactor.url(url)} (Origin ${PREFLIGHT_ORIGIN}, ${method}, headers ${all.join(', ') || 'none'}) → ${r.status}\n${accessControl(h)}`,
    ),
  ];
  return { problems, optionalMissing, evidence };
}

/** A v1.0 client MAY send A2A-Version as a query parameter instead of a header (§3.6.1): a browser can do without it. */
const versionNote = (ctx: CheckContext) => (ctx.generation === 'v1.0' ? ['a2a-version'] : []);

async function corsCall(ctx: CheckContext, url: string | undefined, method: string, what: string): Promise<Verdict> {
  if (!url) return skip('No URL to test.', 'precondition');
  const host = ctx.http.host;
  if (!canPreflight(host)) return noPreflight();
  const headers = rpcHeaders(ctx);
  const o = await preflight(ctx, host, url, method, headers, versionNote(ctx));
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
  const host = ctx.http.host;
  if (!canPreflight(host)) return noPreflight();
  const evidence: Evidence[] = [];
  let simple: string | undefined;
  if (ctx.http.host.transport === 'proxy') {
    // The proxy strips Origin from requests; its diagnostic sends an OPTIONS instead: the server's CORS answer for a
    // GET from the origin, as close as we can get from here.
    const o = await preflight(ctx, host, url, 'GET', []);
    if (o.verdict) return o.verdict;
    evidence.push(
      ...o.evidence,
      ev('note', 'Measured with an OPTIONS request for GET (the proxy cannot send a GET with Origin); a browser sends no preflight for a plain GET.'),
    );
    simple = o.problems.length ? o.problems.join('; ') : undefined;
  } else {
    const r = await exchange(ctx.http, {
      method: 'GET',
      url,
      headers: { Origin: PREFLIGHT_ORIGIN, Accept: 'application/json' },
      lane: ctx.lane('cors card'),
      checkId: ctx.checkId,
    });
    if (!r.responded) return transportVerdict(r, 'reading the card with an Origin header');
    const acao = r.headers.get('access-control-allow-origin') ?? undefined;
    evidence.push(
      ev('GET with Origin', `GET ${ctx.http.redactor.url(url)} (Origin ${PREFLIGHT_ORIGIN}) → ${r.status}\naccess-control-allow-origin: ${acao ?? '(none)'}`, {
        exchangeId: r.exchangeId,
      }),
    );
    simple = [r.status < 200 || r.status >= 300 ? `the GET answered HTTP ${r.status}` : undefined, acaoProblem(acao)].filter(Boolean).join('; ') || undefined;
  }
  if (ctx.generation !== 'v1.0') {
    return simple
      ? fail(`A web page on another origin could not read the agent card: ${simple}.`, evidence)
      : pass('The agent card is readable from another origin (a plain GET; no preflight is involved).', evidence);
  }
  const withHeader = await preflight(ctx, host, url, 'GET', ['a2a-version']);
  if (withHeader.verdict) return withHeader.verdict;
  evidence.push(...withHeader.evidence);
  const headerOk = !withHeader.problems.length;
  if (simple && !headerOk)
    return fail(
      `A web page on another origin could not read the agent card, with or without the A2A-Version header: ${simple}; with the header: ${withHeader.problems.join('; ')}.`,
      evidence,
    );
  if (simple)
    return fail(`A web page on another origin can read the agent card only when it sends the A2A-Version header (the plain GET fails: ${simple}).`, evidence);
  if (!headerOk) {
    return fail(
      `The agent card is readable from another origin without the A2A-Version header (as a query parameter, v1.0 §3.6.1), but not with it: ${withHeader.problems.join('; ')}.`,
      evidence,
      'Add A2A-Version to Access-Control-Allow-Headers on the card route so browser clients can send the header like every other client.',
    );
  }
  return pass(
    'The agent card is readable from another origin, both as a plain GET (A2A-Version as a query parameter) and with the A2A-Version header.',
    evidence,
  );
}

const CORS_REC =
  'Answer OPTIONS preflights on the card, RPC and stream endpoints with Access-Control-Allow-Origin (your dashboard origins or *), Access-Control-Allow-Methods (GET, POST) and Access-Control-Allow-Headers (Content-Type, A2A-Version, A2A-Extensions, Authorization and your API-key header), and put Access-Control-Allow-Origin on the answers too. Express: the cors package; Starlette: CORSMiddleware.';

/** Headers a browser client must send to the RPC and stream endpoints (A2A-Version is reported apart, see versionNote). */
function rpcHeaders(ctx: CheckContext): string[] {
  return ['content-type', ...Object.keys(ctx.authHeaders).map((k) => k.toLowerCase())];
}

/** The URL a browser client posts a message (or a stream) to: the operations table's, with the interface's tenant. */
const rpcUrl = (ctx: CheckContext, op: 'send' | 'stream'): string | undefined => ctx.dialect?.operationUrl(op);

export const interopCorsCard = defineCheck({
  id: 'interop.cors.card',
  title: 'Browser readiness: the card answers CORS preflights',
  category: 'interop',
  level: 'MAY',
  tier: 'advisory',
  phase: 'suite',
  specRefs: CORS_REF,
  recommendation: CORS_REC,
  run: (ctx) => (ctx.discovery.cardUrl ? corsCard(ctx, ctx.discovery.cardUrl) : skip('No card URL.', 'precondition')),
});

export const interopCorsRpc = defineCheck({
  id: 'interop.cors.rpc',
  title: 'Browser readiness: the RPC endpoint answers CORS preflights',
  category: 'interop',
  level: 'MAY',
  tier: 'advisory',
  phase: 'suite',
  specRefs: CORS_REF,
  recommendation: CORS_REC,
  requires: ['browser-callable'],
  run: (ctx) => corsCall(ctx, rpcUrl(ctx, 'send'), 'POST', 'RPC endpoint'),
});

export const interopCorsStream = defineCheck({
  id: 'interop.cors.stream',
  title: 'Browser readiness: the streaming endpoint answers CORS preflights',
  category: 'interop',
  level: 'MAY',
  tier: 'advisory',
  phase: 'suite',
  specRefs: CORS_REF,
  recommendation: CORS_REC,
  requires: ['streaming', 'browser-callable'],
  run: (ctx) => corsCall(ctx, rpcUrl(ctx, 'stream'), 'POST', 'streaming endpoint'),
});
