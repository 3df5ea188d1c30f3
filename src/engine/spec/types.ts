import type { Generation, Obligation } from '../model/check';

/**
 * The documents a requirement can be quoted from. The A2A ones are the tagged releases of the specification at the
 * URLs below (quotes.test.ts finds every quote verbatim in them when a copy of the releases is at hand); the others
 * are the standards A2A builds on, quoted as published.
 */
export const SPEC_DOCS = {
  'a2a-v0.1.0': { title: 'A2A v0.1.0', url: 'https://github.com/a2aproject/A2A/blob/v0.1.0/docs/specification.md' },
  'a2a-v0.2.6': { title: 'A2A v0.2.6', url: 'https://github.com/a2aproject/A2A/blob/v0.2.6/docs/specification.md' },
  'a2a-v0.3.0': { title: 'A2A v0.3.0', url: 'https://github.com/a2aproject/A2A/blob/v0.3.0/docs/specification.md' },
  'a2a-v1.0.0': { title: 'A2A v1.0.0', url: 'https://github.com/a2aproject/A2A/blob/v1.0.0/docs/specification.md' },
  'a2a-v1.0.1': { title: 'A2A v1.0.1', url: 'https://github.com/a2aproject/A2A/blob/v1.0.1/docs/specification.md' },
  'json-rpc-2.0': { title: 'JSON-RPC 2.0', url: 'https://www.jsonrpc.org/specification' },
  'whatwg-sse': { title: 'WHATWG HTML §9.2 Server-sent events', url: 'https://html.spec.whatwg.org/multipage/server-sent-events.html' },
  rfc8259: { title: 'RFC 8259 (JSON)', url: 'https://www.rfc-editor.org/rfc/rfc8259' },
  rfc8615: { title: 'RFC 8615 (Well-Known URIs)', url: 'https://www.rfc-editor.org/rfc/rfc8615' },
  rfc9110: { title: 'RFC 9110 (HTTP Semantics)', url: 'https://www.rfc-editor.org/rfc/rfc9110' },
  rfc9111: { title: 'RFC 9111 (HTTP Caching)', url: 'https://www.rfc-editor.org/rfc/rfc9111' },
  rfc7515: { title: 'RFC 7515 (JWS)', url: 'https://www.rfc-editor.org/rfc/rfc7515' },
  fetch: { title: 'WHATWG Fetch §3.2 CORS protocol', url: 'https://fetch.spec.whatwg.org/#http-cors-protocol' },
  rfc6749: { title: 'RFC 6749 (OAuth 2.0)', url: 'https://www.rfc-editor.org/rfc/rfc6749' },
  'oidc-discovery': { title: 'OpenID Connect Discovery 1.0', url: 'https://openid.net/specs/openid-connect-discovery-1_0.html' },
  /**
   * The conformance procedure this product was specified from (seed 001), its pass criteria and timeouts quoted from
   * the English rendering in docs/conformance-procedure.md#verification: an obligation source beside the spec.
   */
  procedure: { title: 'Conformance procedure', url: 'docs/conformance-procedure.md#verification' },
} as const;
export type SpecDoc = keyof typeof SPEC_DOCS;

/** The A2A release each generation is judged against (the latest tag of that generation). */
export const GENERATION_DOC: Record<Generation, SpecDoc> = {
  legacy: 'a2a-v0.1.0',
  'v0.2': 'a2a-v0.2.6',
  'v0.3': 'a2a-v0.3.0',
  'v1.0': 'a2a-v1.0.1',
};

/**
 * The requirement keyword a sentence carries (RFC 2119 / RFC 8174 words as written), or:
 * - `required-field`: the schema/proto/field table marks the field required (a JSON Schema `required`, a proto
 *   `REQUIRED` field behaviour, a "Yes" in a Required column); judged as MUST: an object without it is invalid;
 * - `none`: the sentence describes the behaviour without a requirement word (an example, a table of meanings,
 *   "the server will ..."). A check backed only by such sentences is an advisory.
 */
export const KEYWORDS = [
  'MUST',
  'MUST NOT',
  'REQUIRED',
  'SHALL',
  'SHALL NOT',
  'SHOULD',
  'SHOULD NOT',
  'RECOMMENDED',
  'MAY',
  'OPTIONAL',
  'required-field',
  'none',
] as const;
export type Keyword = (typeof KEYWORDS)[number];

/** One normative (or descriptive) sentence, quoted verbatim from a document. */
export interface SpecSentence {
  doc: SpecDoc;
  /** For A2A documents: which file of the release (default `specification.md`). */
  file?: 'specification.md' | 'a2a.json' | 'a2a.proto';
  /** Section as the document numbers it, e.g. `§3.1.5 Cancel Task`, or a schema/proto location (`AgentSkill.tags`). */
  section: string;
  /**
   * The words, verbatim: for A2A documents a test finds them in the file (markdown emphasis, backticks and
   * link targets aside, whitespace collapsed). Keep to the sentence (or table row) that carries the rule.
   */
  quote: string;
  keyword: Keyword;
}

/** What a check enforces in one generation. */
export interface GenerationSpec {
  sentences: readonly SpecSentence[];
  /**
   * Why the level is what it is when the sentences alone do not say it: a contradiction between passages
   * (then the level is MAY: a failure is an advisory naming both), a rule inherited from JSON-RPC 2.0, a
   * field the schema requires although the prose is silent.
   */
  note?: string;
  /** Override of the derived level, only with a `note` (e.g. `MAY` where two passages contradict each other). */
  level?: Obligation;
}

/** A check's requirements, per generation it applies to. A generation with no entry: the check does not apply. */
export type CheckSpec = Partial<Record<Generation, GenerationSpec>>;

const MUST_WORDS: readonly Keyword[] = ['MUST', 'MUST NOT', 'REQUIRED', 'SHALL', 'SHALL NOT', 'required-field'];
const SHOULD_WORDS: readonly Keyword[] = ['SHOULD', 'SHOULD NOT', 'RECOMMENDED'];

/** The strength of a generation's requirement: MUST if any sentence is a MUST, else SHOULD, else MAY (advisory). */
export function levelOf(spec: GenerationSpec): Obligation {
  if (spec.level) return spec.level;
  if (spec.sentences.some((s) => MUST_WORDS.includes(s.keyword))) return 'MUST';
  if (spec.sentences.some((s) => SHOULD_WORDS.includes(s.keyword))) return 'SHOULD';
  return 'MAY';
}

/** A short reference for a generation's sentences, e.g. `A2A v1.0.1 §3.1.5 Cancel Task; JSON-RPC 2.0 §5.1`. */
export function refOf(spec: GenerationSpec): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const s of spec.sentences) {
    const r = `${SPEC_DOCS[s.doc].title}${s.file && s.file !== 'specification.md' ? ` ${s.file}` : ''} ${s.section}`;
    if (!seen.has(r)) parts.push(r);
    seen.add(r);
  }
  return parts.join('; ');
}

/** The normalization used to find a quote in its document: emphasis, code marks and link targets dropped, whitespace collapsed. */
export function normalizeSpecText(s: string): string {
  return s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
