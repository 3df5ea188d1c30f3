/**
 * The security review's detectors: pure functions over card text and URLs, so each is unit-tested with its false
 * positives (detect.test.ts). The checks (card.ts, network.ts) turn what they find into informational findings.
 */
import ipaddr from 'ipaddr.js';
import { isRecord } from '../../util/json';

/** One string value of the card, with where it is (a dotted path, `skills[0].description`). */
export interface CardString {
  path: string;
  value: string;
  /** The property name the value is under (`description`, `url`, ...); array items carry their array's name. */
  key: string;
}

/** Every string of a JSON value with its path (depth- and count-bounded: a hostile card cannot make this slow). */
export function cardStrings(root: unknown, opts: { skip?: readonly string[]; max?: number } = {}): CardString[] {
  const out: CardString[] = [];
  const max = opts.max ?? 5000;
  const skip = new Set(opts.skip ?? []);
  const walk = (v: unknown, path: string, key: string, depth: number) => {
    if (out.length >= max || depth > 32) return;
    if (typeof v === 'string') out.push({ path: path || '(root)', value: v, key });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, key, depth + 1));
    else if (isRecord(v)) {
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (!skip.has(p)) walk(x, p, k, depth + 1);
      }
    }
  };
  walk(root, '', '', 0);
  return out;
}

// ------------------------------------------------------------------------------------------- addresses

/** Where a host name or address points, for the card-URL review. */
export type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'public';

/**
 * The kind of address a URL host is: loopback (127/8, ::1, localhost), private (RFC 1918, CGNAT 100.64/10, IPv6
 * unique-local, `.local` / `.internal` names), link-local (169.254/16 incl. cloud metadata, fe80::/10), unspecified
 * (0.0.0.0, ::), else public. Host names other than those are public: we never resolve names here.
 */
export function addressKind(hostname: string): AddressKind {
  const h = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  if (h.endsWith('.local') || h.endsWith('.internal') || h === 'metadata') return 'private';
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(h)) ip = ipaddr.IPv4.parse(h);
  else if (ipaddr.IPv6.isValid(h)) {
    const v6 = ipaddr.IPv6.parse(h);
    ip = v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  } else return 'public';
  switch (ip.range()) {
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    case 'unspecified':
      return 'unspecified';
    default:
      return 'public';
  }
}

/** The URL's host kind, or undefined when the string is not an absolute URL with a host. */
export function urlAddressKind(u: string): { url: URL; kind: AddressKind } | undefined {
  try {
    const url = new URL(u);
    if (!url.hostname) return undefined;
    return { url, kind: addressKind(url.hostname) };
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------------------------------- hidden characters

/** Characters that change how text reads without being seen, with what each is. */
const HIDDEN: readonly [RegExp, string][] = [
  [/[\u202A-\u202E]/u, 'a bidirectional embedding/override control (U+202A-U+202E)'],
  [/[\u2066-\u2069]/u, 'a bidirectional isolate control (U+2066-U+2069)'],
  [/[\u{E0000}-\u{E007F}]/u, 'a Unicode tag character (U+E0000-U+E007F: invisible ASCII)'],
  [/[\u200B\u2060-\u2064\u180E]/u, 'a zero-width or invisible formatting character (U+200B, U+2060-U+2064, U+180E)'],
  [/(?!^)\uFEFF/u, 'a zero-width no-break space (U+FEFF) inside the text'],
  // ZWJ/ZWNJ shape emoji and joining scripts (Persian, Indic): hidden only between two ASCII characters.
  [/[\x21-\x7E][\u200C\u200D][\x21-\x7E]/u, 'a zero-width joiner/non-joiner between ASCII letters (U+200C/U+200D)'],
];

/** What hidden characters a string carries (empty when none). RLM/LRM/ALM marks of right-to-left text are not flagged. */
export function hiddenCharacters(s: string): { what: string; at: number; codePoint: string }[] {
  const found: { what: string; at: number; codePoint: string }[] = [];
  for (const [re, what] of HIDDEN) {
    const m = re.exec(s);
    if (!m) continue;
    const ch = [...m[0]].find((c) => !/[\x21-\x7E]/.test(c)) ?? m[0];
    found.push({ what, at: m.index, codePoint: `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}` });
  }
  return found;
}

/** The string with its hidden characters shown as `<U+XXXX>` (for evidence: the reader sees what is there). */
export function revealHidden(s: string): string {
  return s.replace(/[\u200B-\u200D\u2060-\u2064\u180E\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu, (c) => {
    const cp = c.codePointAt(0) ?? 0;
    // Tag characters mirror ASCII: show the letter they hide too.
    const tag = cp >= 0xe0020 && cp <= 0xe007e ? `=${String.fromCharCode(cp - 0xe0000)}` : '';
    return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}${tag}>`;
  });
}

// ------------------------------------------------------------------------------------------- text for language models

/** Phrasings aimed at a language model reading the card (prompt injection), not at a person choosing an agent. */
const LLM_PATTERNS: readonly [RegExp, string][] = [
  [
    /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|your|the|system)\b[^.!?\n]{0,30}\b(?:instructions?|prompts?|rules|directions|guidelines|context)\b/i,
    'an instruction to ignore earlier instructions',
  ],
  [/\byou are now\b[^.!?\n]{0,40}\b(?:unrestricted|jailbroken|DAN|developer mode|in charge|admin)/i, 'a role override ("you are now ...")'],
  [
    /\b(?:reveal|print|output|repeat|leak)\b[^.!?\n]{0,30}\b(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|instructions\s+above)/i,
    'a request to reveal the system prompt',
  ],
  [/<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?system>/i, 'chat-template control tokens (<|im_start|>, [INST], <<SYS>>, <system>)'],
  [/^\s*(?:#{1,3}\s*)?(?:system|assistant)\s*(?:prompt)?\s*:/im, 'a line that poses as a system/assistant turn'],
  [/\b(?:do not|don't|never)\s+(?:tell|inform|mention to|reveal to)\s+the\s+user\b/i, 'an instruction to hide something from the user'],
  [
    /\b(?:always|must)\s+(?:call|use|choose|prefer|route to)\s+this\s+(?:agent|tool|skill)\b[^.!?\n]{0,40}\b(?:instead|over|rather than|regardless)\b/i,
    'an instruction that tries to win every routing decision',
  ],
];

/** Instructions aimed at a language model in a string (empty when none), with the matched words. */
export function llmInstructions(s: string): { what: string; match: string }[] {
  const text = s.normalize('NFKC');
  return LLM_PATTERNS.flatMap(([re, what]) => {
    const m = re.exec(text);
    return m ? [{ what, match: m[0].trim().slice(0, 120) }] : [];
  });
}

// ------------------------------------------------------------------------------------------- secrets

/** Token formats that are credentials wherever they appear. */
const SECRET_FORMATS: readonly [RegExp, string][] = [
  [/-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY-----/, 'a PEM private key'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{40,}\b/, 'a GitHub fine-grained token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}\b/, 'a Slack token'],
  [/\b(?:sk|rk)_live_[A-Za-z0-9]{16,}\b/, 'a Stripe live key'],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/, 'an OpenAI/Anthropic-style API key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/, 'a JSON Web Token'],
  [/\bBearer\s+[A-Za-z0-9\-._~+/]{20,}=*/, 'a bearer token'],
];

/** Property names whose value is a credential (not the name of one: `name`, `in`, `scheme` stay out). */
const SECRET_KEYS =
  /^(?:x-)?(?:api[-_]?key|apikey|access[-_]?token|auth[-_]?token|bearer[-_]?token|token|secret|client[-_]?secret|password|passwd|private[-_]?key|credentials?)$/i;

/** Values that only stand for a secret (documentation placeholders), never one. */
const PLACEHOLDER = /^(?:<[^>]*>|\{[^}]*\}|\$\{?[A-Z_]+\}?|x{4,}|\*{3,}|your[-_ ].*|example.*|changeme|redacted|\[redacted\]|none|null|string|\.\.\.)$/i;

/** A value that looks random enough to be a key: long, no spaces, letters and digits mixed. */
const looksRandom = (v: string) => v.length >= 16 && !/\s/.test(v) && /[A-Za-z]/.test(v) && /\d/.test(v) && new Set(v).size >= 10;

/** What credential a card string looks like (undefined when none). URLs that merely mention "token" are not secrets. */
export function secretLike(s: CardString): string | undefined {
  for (const [re, what] of SECRET_FORMATS) if (re.test(s.value)) return what;
  const url = urlAddressKind(s.value)?.url;
  if (url) {
    if (url.password) return 'a URL with a password in it';
    for (const [k, v] of url.searchParams) {
      if (SECRET_KEYS.test(k) && !PLACEHOLDER.test(v) && looksRandom(v)) return `a URL carrying a credential in its query (${k}=...)`;
    }
    return undefined;
  }
  if (SECRET_KEYS.test(s.key) && !PLACEHOLDER.test(s.value.trim()) && looksRandom(s.value.trim()))
    return `a value under "${s.key}" that looks like a credential`;
  return undefined;
}

/** A secret shown in evidence: its first 4 characters and its length, never the value. */
export const maskSecret = (v: string): string => `${v.slice(0, 4)}… (${v.length} characters, masked)`;
