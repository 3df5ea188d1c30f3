/** The agent card as served (paths, content type, caching, ETag, card defects) and the authenticated extended card. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildCard } from './card';
import { createCardSigner, JWKS_PATH } from './signing';
import { E } from './errors';
import type { Auth } from './auth';
import { CARD_PATH_NEW, HUGE_CARD_BYTES, versionHeader, type AgentState, type Json } from './state';

export type CardServing = ReturnType<typeof createCardServing>;

export function createCardServing(s: AgentState, { checkAuth }: Pick<Auth, 'checkAuth'>) {
  const { gen, binding, opts, features, has, permits, servesOldPath, endpointUrl } = s;
  const cardPathNew = CARD_PATH_NEW;
  const signer = features.signed ? createCardSigner() : undefined;

  /** The public key set of a signed card (features.signed) at JWKS_PATH; false when this is not that path. */
  function serveJwks(req: IncomingMessage, res: ServerResponse, sub: string): boolean {
    if (!signer || sub !== JWKS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    res
      .writeHead(200, { 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=60' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(signer.jwks));
    return true;
  }

  function serveCard(req: IncomingMessage, res: ServerResponse, sub: string): boolean {
    const isNew = sub === cardPathNew;
    const served = permits('card-both-paths') || (servesOldPath() ? !isNew : isNew);
    if (has('card-html-404') || !served) {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method Not Allowed');
      return true;
    }
    if ((has('card-behind-auth') || permits('card-protected') || permits('card-protected-spa')) && !checkAuth(req, res, true)) return true;
    const card = cardNow();
    // card-varies-*: a different card for requests without A2A-Version (e.g. for old clients).
    if ((has('card-varies-no-vary') || permits('card-varies-by-version')) && !versionHeader(req, new URL(req.url ?? '/', 'http://agent.invalid'))) {
      card.description = `${String(card.description)} (card for clients without A2A-Version)`;
    }
    const contentType = has('card-wrong-content-type')
      ? 'text/plain; charset=utf-8'
      : permits('card-content-type-charset')
        ? 'application/json; charset=utf-8'
        : 'application/json';
    if (has('card-huge')) {
      sendHugeCard(req, res, card, contentType);
      return true;
    }
    const text = JSON.stringify(card);
    const body = has('card-bom') ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : Buffer.from(text);
    const etag = `W/"${hash(text)}"`;
    const headers: Record<string, string> = has('card-no-content-type') ? {} : { 'Content-Type': contentType };
    if (!has('card-no-cache-headers')) {
      headers['Cache-Control'] = permits('card-revalidate') ? 'no-cache, max-age=0' : 'public, max-age=60';
      headers.ETag = etag;
    }
    if (permits('card-varies-by-version') && !permits('cors-minimal') && !has('no-cors')) headers.Vary = 'Origin, A2A-Version';
    else if (permits('card-varies-by-version')) headers.Vary = 'A2A-Version';
    if (headers.ETag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  function cardNow(): Json {
    return buildCard({
      generation: gen,
      binding,
      url: endpointUrl(),
      name: opts.name ?? `Defect agent (${gen}, ${binding})`,
      description: opts.description ?? 'A wire-controlled A2A test agent with switchable defects.',
      ...(opts.auth ? { auth: opts.auth } : {}),
      has,
      permits,
      features,
      signer,
      jku: `${s.publicUrl}${JWKS_PATH}`,
    });
  }

  function sendHugeCard(req: IncomingMessage, res: ServerResponse, card: Json, contentType: string): void {
    const marker = '__PADDING__';
    const [head, tail] = JSON.stringify({ ...card, description: marker }).split(`"${marker}"`) as [string, string];
    const prefix = Buffer.from(`${head}"`);
    const suffix = Buffer.from(`"${tail}`);
    res.writeHead(200, {
      'Content-Type': contentType,
      'Cache-Control': 'public, max-age=60',
      ETag: 'W/"huge-card"',
      'Content-Length': prefix.length + HUGE_CARD_BYTES + suffix.length,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = HUGE_CARD_BYTES;
    res.write(prefix);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end(suffix);
    };
    pump();
  }

  /** The authenticated extended card (features.extendedCard with auth; auth is enforced by the endpoint). */
  function extendedCard(): Json {
    if (!features.extendedCard || !opts.auth) {
      throw gen === 'v1.0' ? E.unsupported('This agent does not declare capabilities.extendedAgentCard') : E.extendedCardNotConfigured();
    }
    if (permits('extended-not-configured')) throw E.extendedCardNotConfigured();
    const card = cardNow();
    card.description = `${String(card.description)} (extended card for authenticated clients)`;
    return card;
  }

  return { serveCard, serveJwks, cardNow, extendedCard };
}

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}
