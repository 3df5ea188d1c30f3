/**
 * Security review of the public card (informational, phase "card": the card only, no request): URLs that point at
 * internal addresses or use plain HTTP, hidden characters, text aimed at language models, values that look like secrets.
 */
import type { Evidence } from '../../model/check';
import { truncate } from '../../util/json';
import { ev, pass, skip } from '../define';
import { agentAddress, defineSecurityCheck, finding, isLocalKind } from './common';
import {
  cardStrings,
  hiddenCharacters,
  llmInstructions,
  maskSecret,
  revealHidden,
  secretLike,
  urlAddressKind,
  type AddressKind,
  type CardString,
} from './detect';

/** JWS signatures are base64url by design (and verified by card.signatures): never read as secrets or text. */
const SKIP = ['signatures'];
const MAX_EVIDENCE = 10;

/** Evidence for each item a detector flags: the item's card path and what was found there. */
function flagged<T extends { s: CardString }>(items: readonly T[], describe: (item: T) => string | undefined): Evidence[] {
  return items.flatMap((item) => {
    const what = describe(item);
    return what === undefined ? [] : [ev(item.s.path, what, { path: item.s.path })];
  });
}

/** The first flagged places, named in a finding's message. */
const firstLabels = (found: Evidence[]) =>
  found
    .slice(0, 3)
    .map((e) => e.label)
    .join(', ');
/** A gRPC target written as host:port (no scheme). */
const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

const KIND_WORDS: Record<AddressKind, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local address (169.254/16, fe80::/10: cloud metadata services live there)',
  unspecified: 'the unspecified address (0.0.0.0 / ::)',
  public: 'a public address',
};

const securityCardUrls = defineSecurityCheck({
  id: 'security.card.urls',
  title: 'The public card points clients at public HTTPS addresses only (no loopback, private or link-local hosts)',
  phase: 'card',
  specRefs: { legacy: 'v0.1.0 §4.1, §5.4', 'v0.2': 'v0.2.6 §4.1, §5.4', 'v0.3': 'v0.3.0 §4.1, §5.4', 'v1.0': 'v1.0.1 §13.3, §13.4' },
  recommendation:
    'Publish only the addresses clients should use: public host names over HTTPS (the interface URLs, provider, documentation and icon URLs, OAuth endpoints). Keep internal addresses (127.0.0.1, 10.x, 192.168.x, 169.254.x, *.internal) out of a public card, or serve such a card only to authenticated clients (the extended card).',
  requires: ['card'],
  run: (ctx) => {
    const agent = agentAddress(ctx);
    const local = isLocalKind(agent?.kind);
    const urls = cardStrings(ctx.raw, { skip: SKIP }).flatMap((s) => {
      // Any URL with a host (http(s), ws(s), grpc(s), ...), and gRPC's bare host:port targets.
      const a = urlAddressKind(s.value) ?? (HOST_PORT.test(s.value) ? urlAddressKind(`grpc://${s.value}`) : undefined);
      return a && a.url.hostname ? [{ s, ...a }] : [];
    });
    if (!urls.length) return skip('The card declares no absolute URL.', 'not-applicable');
    const found = flagged(urls, ({ s, url, kind }) => {
      // Link-local addresses are never a service clients should call, whatever the agent's own address.
      if (kind === 'link-local' || (!local && kind !== 'public')) return `${truncate(s.value, 300)}: ${KIND_WORDS[kind]}`;
      if (!local && kind === 'public' && (url.protocol === 'http:' || url.protocol === 'ws:'))
        return `${truncate(s.value, 300)}: plain ${url.protocol.replace(':', '').toUpperCase()}, not encrypted`;
      return undefined;
    });
    const where = agent ? `The card was read from ${agent.host} (${agent.kind === 'public' ? 'a public address' : 'a local address'}).` : '';
    if (!found.length) {
      return pass(
        `${urls.length} URL${urls.length === 1 ? '' : 's'} in the card, none at a link-local address${local ? '' : ', a loopback or private address, or over plain HTTP'}. ${where}${local ? ' A local agent under test: private addresses and plain HTTP are expected and not flagged.' : ''}`,
      );
    }
    return finding(
      `${found.length} URL${found.length === 1 ? '' : 's'} in the public card ${found.length === 1 ? 'points' : 'point'} at an internal address or ${found.length === 1 ? 'uses' : 'use'} plain HTTP: ${firstLabels(found)}. ${where} Clients cannot reach internal addresses, and listing them maps your network for anyone who reads the card; plain HTTP exposes messages and credentials.`,
      found.slice(0, MAX_EVIDENCE),
    );
  },
});

const securityCardHiddenText = defineSecurityCheck({
  id: 'security.card.hidden-text',
  title: 'Card text carries no hidden characters (zero-width, bidirectional overrides, tag characters)',
  phase: 'card',
  specRefs: { legacy: 'v0.1.0 §5.5 AgentCard', 'v0.2': 'v0.2.6 AgentCard', 'v0.3': 'v0.3.0 AgentCard', 'v1.0': 'v1.0.1 a2a.proto AgentCard' },
  recommendation:
    'Remove invisible and bidirectional-control characters (U+200B, U+2060-U+2064, U+FEFF, U+202A-U+202E, U+2066-U+2069, U+E0000-U+E007F) from names, descriptions, skills and examples: they make the text read differently to people and to language models (Trojan Source, ASCII smuggling). Right-to-left text needs none of them.',
  requires: ['card'],
  run: (ctx) => {
    const strings = cardStrings(ctx.raw, { skip: SKIP });
    const found = flagged(
      strings.map((s) => ({ s, hits: hiddenCharacters(s.value) })),
      ({ s, hits }) => (hits.length ? `${hits.map((h) => `${h.codePoint} (${h.what})`).join('; ')}\n${truncate(revealHidden(s.value), 300)}` : undefined),
    );
    if (!found.length) return pass(`None of the card's ${strings.length} strings carries a hidden or bidirectional-control character.`);
    return finding(
      `${found.length} string${found.length === 1 ? '' : 's'} of the card carr${found.length === 1 ? 'ies' : 'y'} hidden characters (${firstLabels(found)}): what a person sees is not what a program or a language model reads.`,
      found.slice(0, MAX_EVIDENCE),
    );
  },
});

const securityCardLlmInstructions = defineSecurityCheck({
  id: 'security.card.llm-instructions',
  title: 'Card text describes the agent; it carries no instructions aimed at language models (prompt injection)',
  phase: 'card',
  specRefs: { legacy: 'v0.1.0 §5.5 AgentCard', 'v0.2': 'v0.2.6 AgentSkill', 'v0.3': 'v0.3.0 AgentCard', 'v1.0': 'v1.0.1 a2a.proto AgentCard' },
  recommendation:
    'Describe what the agent and its skills do, for people and for the client agents that choose between skills. Remove text that addresses a language model ("ignore previous instructions", system/assistant turns, chat-template tokens, "do not tell the user"): client agents put card text into their prompts, so such text is a prompt injection.',
  requires: ['card'],
  run: (ctx) => {
    const strings = cardStrings(ctx.raw, { skip: SKIP }).filter((s) => !urlAddressKind(s.value));
    const found = flagged(
      strings.map((s) => ({ s, hits: llmInstructions(s.value) })),
      ({ hits }) => (hits.length ? hits.map((h) => `${h.what}: "${h.match}"`).join('; ') : undefined),
    );
    if (!found.length) return pass(`None of the card's ${strings.length} text strings addresses a language model.`);
    return finding(
      `${found.length} string${found.length === 1 ? '' : 's'} of the card read${found.length === 1 ? 's' : ''} like instructions to a language model (${firstLabels(found)}). Client agents put card text into their prompts: this is a prompt injection.`,
      found.slice(0, MAX_EVIDENCE),
    );
  },
});

const securityCardSecrets = defineSecurityCheck({
  id: 'security.card.secrets',
  title: 'The public card carries no secrets (API keys, tokens, private keys, passwords)',
  phase: 'card',
  specRefs: { legacy: 'v0.1.0 §5.4, §5.5.1', 'v0.2': 'v0.2.6 §5.4', 'v0.3': 'v0.3.0 §5.4', 'v1.0': 'v1.0.1 §13.3, §13.4' },
  recommendation:
    'Remove the value from the card and revoke it now: anyone who read the card has it. Declare how clients authenticate (securitySchemes: the API-key header name, the OAuth token URL) and hand out credentials out of band.',
  requires: ['card'],
  run: (ctx) => {
    const strings = cardStrings(ctx.raw, { skip: SKIP });
    const found = flagged(
      strings.map((s) => ({ s })),
      ({ s }) => {
        const what = secretLike(s);
        return what ? `${what}: ${maskSecret(s.value)}` : undefined;
      },
    );
    if (!found.length) return pass(`None of the card's ${strings.length} strings looks like a credential.`);
    return finding(
      `${found.length} value${found.length === 1 ? '' : 's'} in the public card look${found.length === 1 ? 's' : ''} like ${found.length === 1 ? 'a secret' : 'secrets'} (${firstLabels(found)}). Anyone who reads the card can use ${found.length === 1 ? 'it' : 'them'}.`,
      found.slice(0, MAX_EVIDENCE),
    );
  },
});

export const securityCardChecks = [securityCardUrls, securityCardHiddenText, securityCardLlmInstructions, securityCardSecrets];
