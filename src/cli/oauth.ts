/**
 * OAuth 2.0 client credentials on the command line: `--oauth-client-id ID`, the secret from an environment variable
 * (`--oauth-client-secret-env NAME`, default A2A_OAUTH_CLIENT_SECRET; never a flag value, which would end up in shell
 * history and process lists), `--oauth-scope SCOPES`.
 */
import type { OAuthCredentials } from '../engine';

const DEFAULT_SECRET_ENV = 'A2A_OAUTH_CLIENT_SECRET';

export interface OAuthFlags {
  'oauth-client-id'?: string;
  'oauth-client-secret-env'?: string;
  'oauth-scope'?: string;
  /** Refused: present only to say why. */
  'oauth-client-secret'?: string;
}

export const OAUTH_OPTIONS = {
  'oauth-client-id': { type: 'string' },
  'oauth-client-secret-env': { type: 'string' },
  'oauth-scope': { type: 'string' },
  'oauth-client-secret': { type: 'string' },
} as const;

export const OAUTH_USAGE = `  --oauth-client-id ID                OAuth 2.0 client credentials: a token is fetched from the token endpoint the
                                      card declares (clientCredentials flow or OpenID Connect discovery), refreshed
                                      when it expires; the secret comes from an environment variable:
  --oauth-client-secret-env NAME      the variable holding the client secret (default ${DEFAULT_SECRET_ENV})
  --oauth-scope "A B"                 scopes to ask for (default: the scopes the card's security requirement names)`;

/** The OAuth credentials the flags ask for, undefined when none; a string is a usage error. */
export function oauthFrom(v: OAuthFlags, env: Record<string, string | undefined>): OAuthCredentials | undefined | string {
  if (v['oauth-client-secret'] !== undefined)
    return `--oauth-client-secret is not accepted (a secret on the command line ends up in shell history and process lists): put it in an environment variable and name it with --oauth-client-secret-env (default ${DEFAULT_SECRET_ENV})`;
  const clientId = v['oauth-client-id']?.trim();
  if (!clientId) {
    if (v['oauth-client-secret-env'] !== undefined || v['oauth-scope'] !== undefined)
      return '--oauth-client-secret-env and --oauth-scope need --oauth-client-id';
    return undefined;
  }
  const name = v['oauth-client-secret-env'] ?? DEFAULT_SECRET_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `--oauth-client-secret-env takes the name of an environment variable, got ${JSON.stringify(name.slice(0, 40))}`;
  const secret = env[name];
  if (!secret) return `--oauth-client-id needs the client secret in the environment variable ${name} (empty or not set)`;
  const scope = v['oauth-scope']?.trim();
  return { kind: 'oauth2', clientId, clientSecret: secret, ...(scope ? { scope } : {}) };
}
