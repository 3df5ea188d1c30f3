/** Where the user's credentials go on the wire, and the redactor told to mask them (every door: run, session, MCP, tap). */
import type { NormalizedCard } from '../card/normalize';
import type { Credentials } from '../model/credentials';
import type { Redactor } from '../redact';

/** Credential headers/query for a card: the API key goes where the card's apiKey scheme says. */
export function credentialPlacement(creds: Credentials, card?: NormalizedCard): { headers: Record<string, string>; query: Record<string, string> } {
  switch (creds.kind) {
    case 'none':
      return { headers: {}, query: {} };
    case 'bearer':
      return { headers: { Authorization: `Bearer ${creds.token}` }, query: {} };
    case 'header':
      return { headers: { [creds.name]: creds.value }, query: {} };
    case 'oauth2':
      // The access token is added once fetched (target/resolve.ts startOAuth), after the card named the token endpoint.
      return { headers: {}, query: {} };
    case 'api-key': {
      const scheme = card ? Object.values(card.securitySchemes).find((s) => s.type === 'apiKey') : undefined;
      const name = creds.name || (scheme?.type === 'apiKey' && scheme.name) || 'X-API-Key';
      const where = creds.in ?? (scheme?.type === 'apiKey' && scheme.in === 'query' ? 'query' : 'header');
      return where === 'query' ? { headers: {}, query: { [name]: creds.value } } : { headers: { [name]: creds.value }, query: {} };
    }
  }
}

/** Has `r` mask the credentials' values (and the names of the headers and query parameters that carry them). */
export function registerSecrets(r: Redactor, creds: Credentials, headers: Record<string, string> = {}): Redactor {
  if (creds.kind === 'bearer') r.addSecret(creds.token);
  if (creds.kind === 'api-key') r.addSecret(creds.value).addHeaderName(creds.name).addQueryName(creds.name);
  if (creds.kind === 'header') r.addSecret(creds.value).addHeaderName(creds.name);
  if (creds.kind === 'oauth2') r.addSecret(creds.clientSecret);
  // Extra headers given beside the credentials (a console's, MCP's `headers`) are treated as credentials too.
  for (const [name, value] of Object.entries(headers)) r.addSecret(value).addHeaderName(name);
  return r;
}
