/**
 * Card check: each card signature verifies (v1.0.1 §8.4): a JWS with a detached payload, the RFC 8785 (JCS) form of
 * the card without `signatures`. Keys come from the JWKS the user trusts (RunOptions.jwks), else from the signature's
 * `jku` (fetched through the host, i.e. the proxy, with a size and time limit), selected by `kid` and `alg`.
 * Every signature is one of: valid, invalid (it does not verify over the card: the card was changed after signing, or
 * other bytes were signed), unverifiable (why: no key for the kid, jku unreachable, unsupported alg, no key source).
 */
import { base64url, createLocalJWKSet, decodeProtectedHeader, flattenedVerify, type FlattenedJWSInput, type JSONWebKeySet } from 'jose';
import canonicalize from 'canonicalize';
import { exchange } from '../../http/client';
import type { Evidence } from '../../model/check';
import { isRecord } from '../../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, type CheckContext, type Verdict } from '../define';

const ID = 'card.signatures.verified';
/** A JWKS is small: a few keys. */
const JWKS_MAX_BYTES = 256 * 1024;
const JWKS_TIMEOUT_MS = 5000;
/** Signatures judged per card (a card with hundreds is hostile). */
const MAX_SIGNATURES = 10;
/** The top-level fields v1.0 marks REQUIRED: kept even when empty (§8.4.1 rule 1). */
const REQUIRED_TOP = new Set(['name', 'description', 'version', 'supportedInterfaces', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills']);

export type SignatureStatus = 'valid' | 'invalid' | 'unverifiable';

/** What became of one entry of `signatures` (shown in the check's evidence and the card view). */
export interface SignatureOutcome {
  index: number;
  status: SignatureStatus;
  alg?: string;
  kid?: string;
  jku?: string;
  /** Where the key came from (valid / invalid), or why none could be used (unverifiable). */
  detail: string;
  /** Which canonical form verified (valid). */
  payload?: string;
}

type Json = unknown;

/** Empty lists, empty objects and nulls dropped (what proto field presence leaves out), REQUIRED top-level fields kept. */
function withoutDefaults(v: Json, top = true): Json {
  if (Array.isArray(v)) return v.map((x) => withoutDefaults(x, false));
  if (!isRecord(v)) return v;
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutDefaults(x, false);
    const empty = y === null || (Array.isArray(y) && y.length === 0) || (isRecord(y) && Object.keys(y).length === 0);
    if (!empty || (top && REQUIRED_TOP.has(k))) out[k] = y;
  }
  return out;
}

/** What the A2A SDKs sign (cleanEmpty in @a2a-js/sdk and a2a-python): "", null, [] and {} dropped everywhere. */
function withoutEmpty(v: Json): Json {
  if (v === '' || v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const list = v.map(withoutEmpty).filter((x) => x !== undefined);
    return list.length ? list : undefined;
  }
  if (!isRecord(v)) return v;
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutEmpty(x);
    if (y !== undefined) out[k] = y;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The canonical payloads a signer may have signed, most literal first (duplicates dropped). */
export function canonicalPayloads(card: Record<string, unknown>): { label: string; text: string }[] {
  const rest = Object.fromEntries(Object.entries(card).filter(([k]) => k !== 'signatures'));
  const forms: [string, Json][] = [
    ['the card as served, without "signatures"', rest],
    ['default values removed (v1.0.1 §8.4.1 rule 1)', withoutDefaults(rest)],
    ['empty values removed (as the A2A SDKs canonicalize)', withoutEmpty(rest) ?? {}],
  ];
  const seen = new Set<string>();
  const out: { label: string; text: string }[] = [];
  for (const [label, value] of forms) {
    const text = canonicalize(value);
    if (text === undefined || seen.has(text)) continue;
    seen.add(text);
    out.push({ label, text });
  }
  return out;
}

/** A JWKS as parsed JSON (only `keys` objects are kept), or why it is not one. */
function asJwks(v: unknown): JSONWebKeySet | string {
  if (!isRecord(v) || !Array.isArray(v.keys)) return 'not a JWKS (no "keys" list)';
  const keys = v.keys.filter(isRecord).slice(0, 50);
  if (!keys.length) return 'the JWKS has no keys';
  return { keys: keys as unknown as JSONWebKeySet['keys'] };
}

const hasKid = (set: JSONWebKeySet, kid: string | undefined) => set.keys.some((k) => kid === undefined || k.kid === kid);

interface KeySource {
  set?: JSONWebKeySet;
  label: string;
  /** Why there is no key set (unverifiable). */
  problem?: string;
  evidence?: Evidence;
}

/** Fetches a jku through the host (once per URL per check); never throws. */
function jkuFetcher(ctx: CheckContext): (jku: string) => Promise<KeySource> {
  const cache = new Map<string, Promise<KeySource>>();
  const fetchOne = async (jku: string): Promise<KeySource> => {
    const label = `the jku ${jku}`;
    let url: URL;
    try {
      url = new URL(jku);
    } catch {
      return { label, problem: `its jku "${jku}" is not an absolute URL` };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { label, problem: `its jku uses ${url.protocol} (only http(s) can be fetched)` };
    const r = await exchange(ctx.http, {
      method: 'GET',
      url: url.toString(),
      headers: { Accept: 'application/jwk-set+json, application/json' },
      lane: ID,
      checkId: ID,
      timeoutMs: JWKS_TIMEOUT_MS,
      maxBytes: JWKS_MAX_BYTES,
    });
    const evidence = exchangeEvidence(r, `GET ${jku}`);
    if (!r.responded) {
      const ours = r.error?.blame === 'tool' || r.error?.source === 'proxy' || r.error?.source === 'abort';
      return { label, evidence, problem: `${ours ? 'our tool could not fetch' : 'nothing answered at'} its jku (${r.error?.message ?? 'no response'})` };
    }
    if (r.status < 200 || r.status > 299) return { label, evidence, problem: `its jku answered HTTP ${r.status}` };
    if (r.truncated) return { label, evidence, problem: `its jku answered more than ${JWKS_MAX_BYTES / 1024} KB (our limit for a key set)` };
    const parsed = r.json();
    if (!parsed.ok) return { label, evidence, problem: `its jku did not answer JSON (${parsed.error})` };
    const set = asJwks(parsed.value);
    return typeof set === 'string' ? { label, evidence, problem: `its jku answered ${set}` } : { label, evidence, set };
  };
  return (jku) => {
    let p = cache.get(jku);
    if (!p) cache.set(jku, (p = fetchOne(jku)));
    return p;
  };
}

const errName = (e: unknown) => (isRecord(e) && typeof e.code === 'string' ? e.code : '');
const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Verifies one signature against the candidate payloads with the keys of `source`. */
async function verifyWith(
  sig: Record<string, unknown>,
  source: JSONWebKeySet,
  payloads: { label: string; text: string }[],
): Promise<{ ok: true; payload: string } | { ok: false; kind: 'invalid' | 'unverifiable'; why: string }> {
  const keys = createLocalJWKSet(source);
  for (const p of payloads) {
    const jws: FlattenedJWSInput = {
      payload: base64url.encode(p.text),
      protected: String(sig.protected),
      signature: String(sig.signature),
      ...(isRecord(sig.header) && { header: sig.header }),
    };
    try {
      await flattenedVerify(jws, keys);
      return { ok: true, payload: p.label };
    } catch (e) {
      const code = errName(e);
      if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') continue;
      if (code === 'ERR_JWKS_NO_MATCHING_KEY') return { ok: false, kind: 'unverifiable', why: 'no key in the key set matches its kid and alg' };
      if (code === 'ERR_JOSE_NOT_SUPPORTED' || code === 'ERR_JOSE_ALG_NOT_ALLOWED')
        return { ok: false, kind: 'unverifiable', why: `its algorithm is not supported here (${errText(e)})` };
      return { ok: false, kind: 'unverifiable', why: `the key or signature could not be used (${errText(e)})` };
    }
  }
  return { ok: false, kind: 'invalid', why: `it does not verify over the card (tried: ${payloads.map((p) => p.label).join('; ')})` };
}

/** Judges each signature (at most MAX_SIGNATURES); malformed entries are unverifiable (card.signatures judges their shape). */
export async function verifySignatures(
  ctx: CheckContext,
  card: Record<string, unknown>,
  sigs: unknown[],
): Promise<{ outcomes: SignatureOutcome[]; evidence: Evidence[] }> {
  const payloads = canonicalPayloads(card);
  const trusted = ctx.jwks === undefined ? undefined : asJwks(ctx.jwks);
  const fetchJku = jkuFetcher(ctx);
  const evidence: Evidence[] = [];
  const outcomes: SignatureOutcome[] = [];
  for (const [index, s] of sigs.slice(0, MAX_SIGNATURES).entries()) {
    const out = (status: SignatureStatus, detail: string, extra: Partial<SignatureOutcome> = {}) => outcomes.push({ index, status, detail, ...extra });
    if (!isRecord(s) || typeof s.protected !== 'string' || typeof s.signature !== 'string') {
      out('unverifiable', 'it is malformed (see card.signatures)');
      continue;
    }
    let header: Record<string, unknown>;
    try {
      header = { ...(isRecord(s.header) ? s.header : {}), ...decodeProtectedHeader({ protected: s.protected }) };
    } catch {
      out('unverifiable', 'its protected header does not decode (see card.signatures)');
      continue;
    }
    const alg = typeof header.alg === 'string' ? header.alg : undefined;
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const jku = typeof header.jku === 'string' ? header.jku : undefined;
    const about = { alg, kid, jku };
    if (!alg) {
      out('unverifiable', 'it names no alg', about);
      continue;
    }
    if (alg.toLowerCase() === 'none') {
      out('unverifiable', 'its alg is "none" (an unsecured JWS proves nothing)', about);
      continue;
    }
    const sources: KeySource[] = [];
    if (typeof trusted === 'string') sources.push({ label: 'the key set you gave', problem: `the key set you gave is ${trusted}` });
    else if (trusted && hasKid(trusted, kid)) sources.push({ label: 'the key set you gave', set: trusted });
    if (jku) {
      const fetched = await fetchJku(jku);
      if (fetched.evidence && !evidence.some((e) => e.exchangeId === fetched.evidence?.exchangeId)) evidence.push(fetched.evidence);
      sources.push(fetched);
    }
    const usable = sources.filter((x) => x.set && hasKid(x.set, kid));
    if (!usable.length) {
      if (trusted && typeof trusted !== 'string' && !sources.some((x) => x.set === trusted)) sources.unshift({ label: 'the key set you gave', set: trusted });
      const why = sources.map((x) => x.problem ?? `${x.label} has no key with kid "${kid ?? '(none)'}"`);
      if (!jku) why.push(trusted === undefined ? 'it has no jku and no key set was given (CLI --jwks, or the run form)' : 'it has no jku');
      out('unverifiable', why.join('; '), about);
      continue;
    }
    let last: { kind: 'invalid' | 'unverifiable'; why: string; label: string } | undefined;
    let done = false;
    for (const src of usable) {
      if (!src.set) continue;
      const r = await verifyWith(s, src.set, payloads);
      if (r.ok) {
        out('valid', `verified with a key from ${src.label}`, { ...about, payload: r.payload });
        done = true;
        break;
      }
      if (!last || r.kind === 'invalid') last = { ...r, label: src.label };
    }
    if (!done && last) out(last.kind, `${last.why} (key from ${last.label})`, about);
  }
  return { outcomes, evidence };
}

const describe = (o: SignatureOutcome) =>
  `signatures[${o.index}]${o.kid ? ` (kid "${o.kid}"${o.alg ? `, ${o.alg}` : ''})` : o.alg ? ` (${o.alg})` : ''}: ${o.status}: ${o.detail}${o.payload ? `; payload: ${o.payload}` : ''}`;

/** The verdict of the whole card from its signatures' outcomes. */
function signatureVerdict(outcomes: SignatureOutcome[], total: number, evidence: Evidence[]): Verdict {
  const lines = outcomes.map((o) => ev(`signatures[${o.index}] ${o.status}`, describe(o)));
  const all = [...lines, ...evidence];
  const more = total > outcomes.length ? ` (${total - outcomes.length} more not judged)` : '';
  const invalid = outcomes.filter((o) => o.status === 'invalid');
  const valid = outcomes.filter((o) => o.status === 'valid');
  if (invalid.length) {
    return fail(
      `${invalid.length} of ${total} signature(s) do not verify over the card: it was changed after signing, or other bytes were signed. ${invalid.map(describe).join(' ')}${more}`,
      all,
    );
  }
  const insecure = valid.filter((o) => o.detail.includes('from the jku http:')).length;
  const note = insecure ? ' Note: keys were fetched over plain HTTP (v1.0.1 §8.4.3: public keys SHOULD be retrieved over HTTPS).' : '';
  const trust = valid.some((o) => o.detail.includes('jku'))
    ? ' A key taken from the jku the card itself names proves the card is intact, not who signed it: give a key set you trust (--jwks) to prove that.'
    : '';
  if (valid.length) {
    const rest = outcomes.length - valid.length;
    return pass(`${valid.length} of ${total} signature(s) verified${rest ? `; ${rest} could not be verified (see evidence)` : ''}${more}.${trust}${note}`, all);
  }
  return skip(`No signature could be verified, so none is judged: ${outcomes.map(describe).join(' ')}${more}`, 'precondition', all);
}

export const cardSignaturesVerified = defineCheck({
  id: ID,
  title: 'Card signatures verify over the canonical card (JWS, RFC 8785)',
  category: 'agent-card',
  level: 'MUST',
  tier: 'optional',
  phase: 'card',
  specRefs: { 'v0.3': 'v0.3.0 AgentCardSignature', 'v1.0': 'v1.0.1 §8.4.1 Canonicalization Requirements, §8.4.3 Signature Verification' },
  recommendation:
    'Sign the RFC 8785 (JCS) form of the card without "signatures" and with default values removed (v1.0.1 §8.4.1), and sign again whenever the card changes (a build step, not a hand edit). Publish the public key at the jku URL (a JWKS with the kid). @a2a-js/sdk generateAgentCardSignature and a2a-python sign the card this way.',
  requires: ['card'],
  run: async (c): Promise<Verdict> => {
    const sigs = c.raw.signatures;
    if (!Array.isArray(sigs) || sigs.length === 0) return skip('The card is not signed.', 'not-applicable');
    const { outcomes, evidence } = await verifySignatures(c, c.raw, sigs);
    return signatureVerdict(outcomes, sigs.length, evidence);
  },
});
