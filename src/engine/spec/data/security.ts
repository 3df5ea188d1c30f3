import type { CheckSpec, GenerationSpec, SpecSentence } from '../types';

/**
 * What each security-review check points at, per generation, quoted from the specification (see ../types.ts).
 * The security review is informational (report/level.ts leaves the category out of the level): the sentences say
 * why a finding matters, not that it makes the agent non-conformant. Where no A2A sentence exists, the note says so.
 * This file is a list of independent entries, one per check id.
 */

const INFO =
  'Security review: informational, never part of the conformance level, so it is judged as MAY whatever the sentences say (a finding is an advisory).';

// ------------------------------------------------------------------------------------------------ shared sentences

const httpsV01: SpecSentence = {
  doc: 'a2a-v0.1.0',
  section: '§4.1 Transport Security',
  quote: 'As stated in section 3.1, production deployments **MUST** use HTTPS.',
  keyword: 'MUST',
};
const httpsV02: SpecSentence = { ...httpsV01, doc: 'a2a-v0.2.6' };
const httpsV03: SpecSentence = { ...httpsV01, doc: 'a2a-v0.3.0' };
const httpsV1: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§13.4 General Security Best Practices',
  quote: 'Production deployments **MUST** use encrypted communication (HTTPS for HTTP-based bindings, TLS for gRPC)',
  keyword: 'MUST',
};
const sensitiveV01: SpecSentence = {
  doc: 'a2a-v0.1.0',
  section: '§5.4 Security of Agent Cards',
  quote:
    'Agent Cards themselves might contain information that is considered sensitive (e.g., the URL of an internal-only agent, or scheme-specific information in `authentication.credentials`).',
  keyword: 'none',
};
const sensitive = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§5.4 Security of Agent Cards',
  quote: 'Agent Cards themselves might contain information that is considered sensitive.',
  keyword: 'none',
});
const extendedSensitiveV1: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§13.3 Extended Agent Card Access Control',
  quote:
    'Extended cards **SHOULD NOT** include sensitive information that could be exploited if leaked (e.g., internal service URLs, unmasked credentials)',
  keyword: 'SHOULD NOT',
};
const noPlaintextSecrets = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§5.4 Security of Agent Cards',
  quote: 'It is generally **NOT RECOMMENDED** to include plaintext secrets (like static API keys) directly in an Agent Card.',
  keyword: 'RECOMMENDED',
});
const credentialsSecretV1: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§13.4 General Security Best Practices',
  quote: 'API keys, tokens, and other credentials **MUST** be treated as secrets',
  keyword: 'MUST',
};
const credentialsEncryptedV1: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§13.4 General Security Best Practices',
  quote: 'Credentials **SHOULD** be transmitted only over encrypted connections',
  keyword: 'SHOULD',
};

const TEXT_NOTE = `No A2A release forbids hidden characters or text addressed to language models in a card; the sentences say the card's text is meant for people and client agents to read. ${INFO}`;

// Card text is for people and client agents to read.
const textV01: SpecSentence[] = [
  { doc: 'a2a-v0.1.0', section: '§5.5 AgentCard', quote: 'Human-readable name of the agent.', keyword: 'none' },
  { doc: 'a2a-v0.1.0', section: '§5.5 AgentCard', quote: 'A human-readable description of the agent and its general purpose.', keyword: 'none' },
];
const textV02: SpecSentence[] = [
  { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'AgentCard.name', quote: 'Human readable name of the agent.', keyword: 'none' },
  { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'AgentSkill.description', quote: 'Description of the skill - will be used by the client or a human', keyword: 'none' },
];
const textV03: SpecSentence[] = [
  { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'AgentCard.name', quote: 'A human-readable name for the agent.', keyword: 'none' },
  { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'AgentSkill.description', quote: 'A detailed description of the skill, intended to help clients or users', keyword: 'none' },
];
const textV1: SpecSentence[] = [
  { doc: 'a2a-v1.0.1', file: 'a2a.proto', section: 'message AgentCard', quote: 'A human readable name for the agent.', keyword: 'none' },
  { doc: 'a2a-v1.0.1', file: 'a2a.proto', section: 'message AgentSkill', quote: 'Example prompts or scenarios that this skill can handle.', keyword: 'none' },
];
const text = (sentences: SpecSentence[]): GenerationSpec => ({ sentences, note: TEXT_NOTE, level: 'MAY' });

// ------------------------------------------------------------------------------------------------ CORS, redirects (outside A2A)

const CORS_NOTE = `No A2A release mentions CORS; the Fetch Standard says what the headers mean. Allowing credentialed calls from every origin lets any web site act with a signed-in user's cookies or HTTP authentication. ${INFO}`;
const corsSentences: SpecSentence[] = [
  {
    doc: 'fetch',
    section: '§3.2 CORS protocol',
    quote: 'It is layered on top of HTTP and allows responses to declare they can be shared with other origins.',
    keyword: 'none',
  },
  {
    doc: 'fetch',
    section: '§3.2.3 HTTP responses',
    quote: 'Indicates whether the response can be shared when request\'s credentials mode is "include".',
    keyword: 'none',
  },
];
const cors: GenerationSpec = { sentences: corsSentences, note: CORS_NOTE, level: 'MAY' };

const REDIRECT_NOTE = `No A2A release mentions redirects. A redirect to another host sends the client's request there; one from HTTPS to HTTP sends it unencrypted. ${INFO}`;
const redirect3xx: SpecSentence = {
  doc: 'rfc9110',
  section: '§15.4 Redirection 3xx',
  quote: 'The 3xx (Redirection) class of status code indicates that further action needs to be taken by the user agent in order to fulfill the request.',
  keyword: 'none',
};
const redirects = (extra: SpecSentence[] = []): GenerationSpec => ({ sentences: [redirect3xx, ...extra], note: REDIRECT_NOTE, level: 'MAY' });

// ------------------------------------------------------------------------------------------------ entries

const extendedAuth = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'The client **MUST** authenticate the request using one of the schemes declared in the public `AgentCard.securitySchemes` and `AgentCard.security` fields.',
  keyword: 'MUST',
});

export const SPEC: Record<string, CheckSpec> = {
  'security.card.urls': {
    legacy: { sentences: [httpsV01, sensitiveV01], note: INFO, level: 'MAY' },
    'v0.2': { sentences: [httpsV02, sensitive('a2a-v0.2.6')], note: INFO, level: 'MAY' },
    'v0.3': { sentences: [httpsV03, sensitive('a2a-v0.3.0')], note: INFO, level: 'MAY' },
    'v1.0': { sentences: [httpsV1, extendedSensitiveV1], note: `The public card is read by anyone: what §13.3 keeps out of the extended card belongs even less in the public one. ${INFO}`, level: 'MAY' },
  },
  'security.card.hidden-text': { legacy: text(textV01), 'v0.2': text(textV02), 'v0.3': text(textV03), 'v1.0': text(textV1) },
  'security.card.llm-instructions': { legacy: text(textV01), 'v0.2': text(textV02), 'v0.3': text(textV03), 'v1.0': text(textV1) },
  'security.card.secrets': {
    legacy: {
      sentences: [
        noPlaintextSecrets('a2a-v0.1.0'),
        { doc: 'a2a-v0.1.0', section: '§5.5.1 AgentAuthentication', quote: '**MUST NOT contain plaintext secrets.**', keyword: 'MUST NOT' },
      ],
      note: INFO,
      level: 'MAY',
    },
    'v0.2': { sentences: [noPlaintextSecrets('a2a-v0.2.6')], note: INFO, level: 'MAY' },
    'v0.3': { sentences: [noPlaintextSecrets('a2a-v0.3.0')], note: INFO, level: 'MAY' },
    'v1.0': { sentences: [credentialsSecretV1, extendedSensitiveV1], note: INFO, level: 'MAY' },
  },
  'security.cors.credentials': { legacy: cors, 'v0.2': cors, 'v0.3': cors, 'v1.0': cors },
  'security.redirects': { legacy: redirects(), 'v0.2': redirects(), 'v0.3': redirects(), 'v1.0': redirects([credentialsEncryptedV1]) },
  'security.extended-card.anonymous': {
    'v0.2': { sentences: [extendedAuth('a2a-v0.2.6', '§7.10 agent/authenticatedExtendedCard')], note: INFO, level: 'MAY' },
    'v0.3': { sentences: [extendedAuth('a2a-v0.3.0', '§7.10 agent/getAuthenticatedExtendedCard')], note: INFO, level: 'MAY' },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§13.3 Extended Agent Card Access Control',
          quote: 'The [`Get Extended Agent Card`](#3111-get-extended-agent-card) operation **MUST** require authentication',
          keyword: 'MUST',
        },
      ],
      note: INFO,
      level: 'MAY',
    },
  },
};
