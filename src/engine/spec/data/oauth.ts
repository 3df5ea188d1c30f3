/**
 * OAuth 2.0 / OpenID Connect token endpoints the card points at (src/engine/checks/auth-oauth.ts). A2A leaves getting
 * the credentials "out of band", so nothing in A2A requires these answers: the checks are advisories (level MAY),
 * quoting the RFC 6749 and OpenID Connect Discovery sentences the identity provider breaks.
 */
import type { CheckSpec, GenerationSpec, SpecSentence } from '../types';

const outOfBand = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote:
    'The client obtains the necessary credentials (e.g., API keys, OAuth tokens, JWTs) through an out-of-band process specific to the required authentication scheme and the identity provider.',
  keyword: 'none',
});
const outOfBandV1: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§7.3 Client Authentication Process',
  quote: 'The client obtains the necessary credentials through an out-of-band process specific to the required authentication scheme.',
  keyword: 'none',
};

const TOKEN: SpecSentence[] = [
  { doc: 'rfc6749', section: '§5.1 Successful Response', quote: 'access_token REQUIRED. The access token issued by the authorization server.', keyword: 'REQUIRED' },
  {
    doc: 'rfc6749',
    section: '§5.1 Successful Response',
    quote: 'token_type REQUIRED. The type of the token issued as described in Section 7.1. Value is case insensitive.',
    keyword: 'REQUIRED',
  },
  {
    doc: 'rfc6749',
    section: '§5.1 Successful Response',
    quote:
      'The authorization server MUST include the HTTP "Cache-Control" response header field [RFC2616] with a value of "no-store" in any response containing tokens, credentials, or other sensitive information, as well as the "Pragma" response header field [RFC2616] with a value of "no-cache".',
    keyword: 'MUST',
  },
  {
    doc: 'rfc6749',
    section: '§5.2 Error Response',
    quote:
      'The authorization server responds with an HTTP 400 (Bad Request) status code (unless specified otherwise) and includes the following parameters with the response:',
    keyword: 'none',
  },
  { doc: 'rfc6749', section: '§5.2 Error Response', quote: 'error REQUIRED. A single ASCII [USASCII] error code from the following:', keyword: 'REQUIRED' },
];

const DISCOVERY: SpecSentence[] = [
  {
    doc: 'oidc-discovery',
    section: '§3 OpenID Provider Metadata',
    quote: 'issuer REQUIRED. URL using the https scheme with no query or fragment components that the OP asserts as its Issuer Identifier.',
    keyword: 'REQUIRED',
  },
  {
    doc: 'oidc-discovery',
    section: '§3 OpenID Provider Metadata',
    quote: "token_endpoint URL of the OP's OAuth 2.0 Token Endpoint [OpenID.Core]. This is REQUIRED unless only the Implicit Flow is used.",
    keyword: 'REQUIRED',
  },
  {
    doc: 'oidc-discovery',
    section: '§3 OpenID Provider Metadata',
    quote: 'If omitted, the default value is ["authorization_code", "implicit"].',
    keyword: 'none',
  },
  {
    doc: 'oidc-discovery',
    section: '§4.3 OpenID Provider Configuration Validation',
    quote:
      'The issuer value returned MUST be identical to the Issuer URL that was used as the prefix to /.well-known/openid-configuration to retrieve the configuration information.',
    keyword: 'MUST',
  },
];

const NOTE =
  'A2A requires none of this: it leaves obtaining credentials out of band. The RFC 6749 / OpenID Connect requirements bind the identity provider, not the agent, so a failure is an advisory that explains why a client could not get a token.';

const per = (extra: SpecSentence[]): Partial<Record<'v0.2' | 'v0.3' | 'v1.0', GenerationSpec>> => ({
  'v0.2': { sentences: [outOfBand('a2a-v0.2.6', '§4.3 Client/User Identity & Authentication Process'), ...extra], note: NOTE, level: 'MAY' },
  'v0.3': { sentences: [outOfBand('a2a-v0.3.0', '§4.3 Client/User Identity & Authentication Process'), ...extra], note: NOTE, level: 'MAY' },
  'v1.0': { sentences: [outOfBandV1, ...extra], note: NOTE, level: 'MAY' },
});

export const SPEC: Record<string, CheckSpec> = {
  'auth.oauth-token': per(TOKEN),
  'auth.oauth-discovery': per(DISCOVERY),
};
