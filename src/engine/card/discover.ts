import { decode } from '../http/body';
import { exchange, type HttpContext, type HttpResult } from '../http/client';
import { finish } from '../http/exchange';
import type { DiscoveryAttempt } from '../model/events';
import { isRecord } from '../util/json';

const WELL_KNOWN = ['agent-card.json', 'agent.json'] as const;

export interface DiscoveryResult {
  inputUrl: string;
  attempts: DiscoveryAttempt[];
  /** The response that was taken as the card (2xx), even if its body is not a valid card. */
  response?: HttpResult;
  cardUrl?: string;
  cardSource?: 'agent-card.json' | 'agent.json' | 'direct';
  /** Parsed body when it was JSON. */
  raw?: unknown;
  parseError?: string;
  /** The card answered only when credentials were sent. */
  neededCredentials: boolean;
  /** Every candidate failed at the transport level (nothing answered at all). */
  unreachable?: {
    message: string;
    blame: 'agent' | 'tool' | 'unknown';
    proxyCode?: string;
    /** The transport error's source (e.g. `timeout`: our per-request budget ended). */ source?: string;
  };
  /** Set when the input URL itself is unusable. */
  invalidUrl?: string;
  /** What discovery concluded (see TargetInfo.reach). */
  reach: 'card' | 'no-card' | 'unreachable' | 'credentials-required' | 'credentials-rejected' | 'tool-failure' | 'invalid-url';
}

/** A 2xx answer that is meant as a card even if broken: JSON by type or by its first byte, or cut by our limit. */
function looksLikeCardAttempt(r: HttpResult): boolean {
  return r.truncated || /json/i.test(r.contentType) || /^\s*[{[]/.test(r.text);
}

/** Candidate card URLs for an input: direct card URL, or the well-known paths under the path, then at the root. */
export function cardCandidates(input: string): { url: string; source: 'agent-card.json' | 'agent.json' | 'direct' }[] {
  const u = new URL(input);
  u.hash = '';
  const path = u.pathname;
  if (/\.json$/i.test(path) || path.includes('/.well-known/')) {
    return [{ url: u.toString(), source: /agent\.json$/i.test(path) ? 'agent.json' : /agent-card\.json$/i.test(path) ? 'agent-card.json' : 'direct' }];
  }
  const base = path.replace(/\/+$/, '');
  const out: { url: string; source: 'agent-card.json' | 'agent.json' }[] = [];
  const add = (prefix: string) => {
    for (const name of WELL_KNOWN) {
      const url = `${u.origin}${prefix}/.well-known/${name}${u.search}`;
      if (!out.some((o) => o.url === url)) out.push({ url, source: name });
    }
  };
  add(base);
  if (base) add('');
  return out;
}

export interface DiscoverOptions {
  lane?: string;
  checkId?: string;
  /** Extra headers to send (credentials) on the second pass, when the first pass met 401/403. */
  credentialHeaders?: Record<string, string>;
  /** Retries of the whole first pass when nothing answered (cold start), with exponential backoff. */
  warmupRetries?: number;
  warmupBaseMs?: number;
  timeoutMs?: number;
}

const CARD_HEADERS = { Accept: 'application/json', 'A2A-Version': '1.0' };

/**
 * Finds the agent card (issue: card discovery). Sends `A2A-Version: 1.0` (a2a-js servers vary the
 * card on it) and records every attempt. Never throws.
 */
export async function findCard(ctx: HttpContext, input: string, opts: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const result: DiscoveryResult = { inputUrl: input, attempts: [], neededCredentials: false, reach: 'no-card' };
  let candidates: ReturnType<typeof cardCandidates>;
  try {
    const u = new URL(input);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported scheme ${u.protocol}`);
    candidates = cardCandidates(input);
  } catch (e) {
    result.invalidUrl = `Not an absolute http(s) URL: ${e instanceof Error ? e.message : String(e)}`;
    result.reach = 'invalid-url';
    return result;
  }
  const lane = opts.lane ?? 'discovery';
  const retries = opts.warmupRetries ?? 3;
  const baseMs = opts.warmupBaseMs ?? 500;

  const pass = async (headers: Record<string, string>, note?: string) => {
    let firstOk: { r: HttpResult; c: (typeof candidates)[number] } | undefined;
    let authBlocked = false;
    let anyAnswer = false;
    let transportFailure: HttpResult | undefined;
    for (const c of candidates) {
      const r = await exchange(ctx, { method: 'GET', url: c.url, headers, lane, checkId: opts.checkId, timeoutMs: opts.timeoutMs });
      const attempt: DiscoveryAttempt = { url: ctx.redactor.url(c.url), status: r.responded ? r.status : undefined, ok: false, exchangeId: r.exchangeId, note };
      result.attempts.push(attempt);
      if (!r.responded) {
        transportFailure ??= r;
        attempt.note = [note, r.error?.message].filter(Boolean).join('; ');
        if (r.error?.source === 'abort') break;
        continue;
      }
      anyAnswer = true;
      if (r.status === 401 || r.status === 403) authBlocked = true;
      if (r.status >= 200 && r.status < 300) {
        const parsed = r.json();
        if (parsed.ok && isRecord(parsed.value)) {
          attempt.ok = true;
          return { hit: { r, c, value: parsed.value }, firstOk, authBlocked, anyAnswer, transportFailure };
        }
        attempt.note = [note, parsed.ok ? 'JSON but not an object' : `not JSON (${r.contentType || 'no content type'})`].filter(Boolean).join('; ');
        firstOk ??= { r, c };
      }
    }
    return { hit: undefined, firstOk, authBlocked, anyAnswer, transportFailure };
  };

  let p = await pass(CARD_HEADERS);
  for (let i = 0; i < retries && !p.hit && !p.anyAnswer && p.transportFailure && !ctx.signal.aborted; i++) {
    // A connection that could not be made looks like a cold start; so may one slow first answer (once).
    // A proxy refusal, a reset or a redirect loop will not change: retrying them only multiplies the wait.
    const e = p.transportFailure.error;
    if (!(e?.blame === 'unknown' || (e?.source === 'timeout' && i === 0))) break;
    await ctx.host.sleep(baseMs * 2 ** i, ctx.signal).catch(() => undefined);
    p = await pass(CARD_HEADERS, `warm-up retry ${i + 1}`);
  }
  const hasCreds = !!opts.credentialHeaders && Object.keys(opts.credentialHeaders).length > 0;
  let refusedWithCreds = false;
  if (!p.hit && p.authBlocked && hasCreds) {
    const withCreds = await pass({ ...CARD_HEADERS, ...opts.credentialHeaders }, 'with credentials');
    if (withCreds.hit) {
      result.neededCredentials = true;
      p = withCreds;
    } else refusedWithCreds = withCreds.authBlocked;
  }
  if (p.hit) {
    result.response = p.hit.r;
    result.cardUrl = p.hit.c.url;
    result.cardSource = p.hit.c.source;
    result.raw = p.hit.value;
    result.reach = 'card';
    return result;
  }
  if (p.firstOk && looksLikeCardAttempt(p.firstOk.r)) result.reach = 'card';
  else if (p.authBlocked) {
    // A card path refused us (401/403) and another answered 2xx with something that is not a card (typically an
    // SPA fallback page): the card is the protected one, so the page is not taken as the card.
    result.reach = hasCreds && refusedWithCreds ? 'credentials-rejected' : 'credentials-required';
    return result;
  }
  if (p.firstOk) {
    result.response = p.firstOk.r;
    result.cardUrl = p.firstOk.c.url;
    result.cardSource = p.firstOk.c.source;
    const parsed = p.firstOk.r.json();
    if (parsed.ok) result.raw = parsed.value;
    else result.parseError = p.firstOk.r.truncated ? `the body exceeded the ${ctx.limits.maxBodyBytes} byte read limit and was cut` : parsed.error;
    return result;
  }
  if (!p.anyAnswer && p.transportFailure) {
    const err = p.transportFailure.error;
    result.unreachable = {
      message: err?.message ?? 'no answer',
      blame: err?.blame ?? 'unknown',
      proxyCode: err?.source === 'proxy' ? err.code : undefined,
      source: err?.source,
    };
    // The agent's own misbehaviour (a redirect loop, resets) means something answered, just no card.
    result.reach =
      err?.blame === 'tool' || err?.source === 'abort' ? 'tool-failure' : err?.blame === 'agent' && err.source !== 'timeout' ? 'no-card' : 'unreachable';
  }
  return result;
}

/**
 * What discovery would have found had `card` been served at `cardUrl` (200, application/json), without any
 * request: for judging a card given as JSON (a registry entry, a pasted card). A card over `maxBodyBytes` is cut
 * as a served one would be.
 */
export function servedCardDiscovery(card: unknown, cardUrl: string, maxBodyBytes: number): DiscoveryResult {
  const text = JSON.stringify(card) ?? '';
  const bytes = new TextEncoder().encode(text);
  const truncated = bytes.byteLength > maxBodyBytes;
  const read = decode(truncated ? bytes.subarray(0, maxBodyBytes) : bytes);
  const response = finish({
    exchangeId: 'served-card',
    url: cardUrl,
    responded: true,
    status: 200,
    headers: new Headers({ 'content-type': 'application/json' }),
    contentType: 'application/json',
    ...read,
    bytes: bytes.byteLength,
    truncated,
    startedAt: 0,
    endedAt: 0,
  });
  const source = cardCandidates(cardUrl)[0]?.source ?? 'direct';
  const parsed = response.json();
  const object = parsed.ok && isRecord(parsed.value);
  const note = object ? undefined : parsed.ok ? 'JSON but not an object' : 'not JSON (application/json)';
  return {
    inputUrl: cardUrl,
    attempts: [{ url: cardUrl, status: 200, ok: object, exchangeId: response.exchangeId, ...(note && { note }) }],
    response,
    cardUrl,
    cardSource: source,
    ...(parsed.ok ? { raw: parsed.value } : { parseError: truncated ? `the body exceeded the ${maxBodyBytes} byte read limit and was cut` : parsed.error }),
    neededCredentials: false,
    reach: 'card',
  };
}
