/**
 * Demo agent behind OAuth 2.0: the v0.3 SDK demo agent (v03-agent.ts, as it is) with a bearer-validating middleware
 * in front of its JSON-RPC and HTTP+JSON endpoints, and its own identity provider (oauth2-mock-server's service, in process, under `<base>/idp`).
 * The card declares an `oauth2` scheme with a client-credentials flow whose tokenUrl is that provider's token
 * endpoint (or, with `oidc`, an `openIdConnect` scheme pointing at its discovery document). Tokens are RS256 JWTs
 * from the provider, checked with jose against its keys (signature, issuer, expiry). Only the demo client below is
 * accepted (the mock server itself takes any client, so the middleware in front of /token checks the secret).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';
import type { AgentCard } from 'a2a-sdk-v03';
import { agentCardHandler } from 'a2a-sdk-v03/server/express';
import { mountExpress, type DemoAgentOptions, type MountedDemoAgent, trimSlash } from './mount';
import { buildV03Card, createV03DemoAgent } from './v03-agent';

/** The demo client (README: "OAuth demo agent"). Not a secret: it only unlocks this local demo. */
export const DEMO_OAUTH_CLIENT = { clientId: 'a2a-interop-demo', clientSecret: 'demo-secret-change-me' } as const;
const DEMO_OAUTH_SCOPE = 'a2a:invoke';

export interface OAuthDemoOptions extends DemoAgentOptions {
  /** Token lifetime in seconds (default 3600; tests use 1-2 s to see a refresh). */
  tokenTtlSeconds?: number;
  /** Declare OpenID Connect discovery instead of the client-credentials token URL. */
  oidc?: boolean;
}

function buildOAuthCard(publicUrl: string, oidc = false): AgentCard {
  const base = trimSlash(publicUrl);
  const card = buildV03Card(publicUrl);
  return {
    ...card,
    name: 'Demo agent behind OAuth 2.0 (v0.3 SDK)',
    description: `The v0.3 SDK demo agent; every A2A call needs a bearer token from its ${oidc ? 'OpenID Connect provider' : 'OAuth 2.0 token endpoint'} (client credentials).`,
    securitySchemes: oidc
      ? { oidc: { type: 'openIdConnect', openIdConnectUrl: `${base}/idp/.well-known/openid-configuration` } }
      : { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${base}/idp/token`, scopes: { [DEMO_OAUTH_SCOPE]: 'Call the agent' } } } } },
    security: [oidc ? { oidc: [] } : { oauth: [DEMO_OAUTH_SCOPE] }],
  };
}

/** The client id and secret of a token request (client_secret_basic or client_secret_post). */
function clientOf(req: Request): { id?: string; secret?: string; basic: boolean } {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (m?.[1]) {
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return i < 0 ? { basic: true } : { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)), basic: true };
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  return {
    id: typeof body.client_id === 'string' ? body.client_id : undefined,
    secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
    basic: false,
  };
}

export function createOAuthDemoAgent(opts: OAuthDemoOptions): MountedDemoAgent {
  const basePath = trimSlash(opts.basePath);
  const issuerUrl = `${trimSlash(opts.publicUrl)}/idp`;
  const ttl = opts.tokenTtlSeconds ?? 3600;
  const issuer = new OAuth2Issuer();
  issuer.url = issuerUrl;
  const service = new OAuth2Service(issuer);
  const ready = issuer.keys.generate('RS256');
  service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    token.payload.exp = Math.floor(Date.now() / 1000) + ttl;
  });
  service.on('beforeResponse', (response: { body: unknown }) => {
    if (response.body && typeof response.body === 'object' && 'expires_in' in response.body) (response.body as Record<string, unknown>).expires_in = ttl;
  });

  const card = buildOAuthCard(opts.publicUrl, opts.oidc);
  // The v0.3 demo agent itself, mounted at the same path: this one serves the card and the issuer, and checks tokens.
  const inner = createV03DemoAgent(opts);

  const idp = express.Router();
  idp.use((_req, _res, next) => void ready.then(() => next(), next));
  idp.post('/token', express.urlencoded({ extended: false, limit: '16kb' }), (req, res, next) => {
    const c = clientOf(req);
    if (c.id === DEMO_OAUTH_CLIENT.clientId && c.secret === DEMO_OAUTH_CLIENT.clientSecret) return next();
    // RFC 6749 §5.2: invalid_client; 401 with a challenge for the scheme the client tried.
    if (c.basic) res.set('WWW-Authenticate', 'Basic realm="demo idp"');
    res
      .status(c.basic ? 401 : 400)
      .set('Cache-Control', 'no-store')
      .json({ error: 'invalid_client', error_description: 'Unknown client or wrong secret.' });
  });
  idp.use(service.requestHandler as express.RequestHandler);

  const bearer = async (req: Request, res: Response, next: NextFunction) => {
    const refuse = (error?: string) => {
      res
        .status(401)
        .set('WWW-Authenticate', `Bearer realm="demo agent"${error ? `, error="${error}"` : ''}`)
        .json({ error: error ?? 'unauthorized' });
    };
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m?.[1]) return refuse();
    try {
      await ready;
      const keys = createLocalJWKSet({ keys: issuer.keys.toJSON() } as JSONWebKeySet);
      await jwtVerify(m[1], keys, { issuer: issuerUrl });
      // Express stripped the mount path from req.url; the inner agent routes on the full one.
      req.url = req.originalUrl;
      if (!inner.handle(req, res)) next();
    } catch {
      refuse('invalid_token');
    }
  };

  const router = express.Router();
  router.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: () => Promise.resolve(card) }));
  router.use('/idp', idp);
  router.use(['/jsonrpc', '/rest'], (req, res, next) => void bearer(req, res, next));
  return mountExpress(basePath, router, {
    url: `${trimSlash(opts.publicUrl)}/jsonrpc`,
    cardUrl: `${trimSlash(opts.publicUrl)}/.well-known/agent-card.json`,
  });
}
