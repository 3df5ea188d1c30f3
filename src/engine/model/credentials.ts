/**
 * Credentials supplied by the user, as every door takes them (a run, a console session, MCP, the tap). Values never
 * appear in events, reports or logs (see redact.ts); target/credentials.ts places them on the wire.
 */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  /** API key; `name` defaults to the header/query name the card's apiKey scheme declares, else X-API-Key. */
  | { kind: 'api-key'; value: string; name?: string; in?: 'header' | 'query' }
  | { kind: 'header'; name: string; value: string }
  /** OAuth 2.0 client credentials: a token is fetched from the endpoint the card declares (src/engine/auth). */
  | OAuthCredentials;

export interface OAuthCredentials {
  kind: 'oauth2';
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (default: none, the token endpoint's default). */
  scope?: string;
}
