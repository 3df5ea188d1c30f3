/** Authentication as the card declares it (bearer or API key): who is let in, and how a refusal is spelled per binding. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyHeader } from './card';
import { V1_REST_CT, type AgentState } from './state';

export type Auth = ReturnType<typeof createAuth>;

export function createAuth(s: AgentState) {
  const { gen, binding, opts, has, permits } = s;
  const REALM = 'realm="a2a-interop"';

  /** The credentials presented: 'none', 'valid', or the refusal (status and challenge) they earn. */
  function credentialState(req: IncomingMessage): { state: 'none' | 'valid' | 'wrong'; status: number; challenge: string } {
    const auth = opts.auth;
    if (!auth || auth.scheme === 'bearer') {
      const h = req.headers.authorization;
      const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
      if (!m) return { state: 'none', status: 401, challenge: `Bearer ${REALM}` };
      if (!auth || !safeEqual(m[1]!, auth.secret)) return { state: 'wrong', status: 401, challenge: `Bearer ${REALM}, error="invalid_token"` };
      return { state: 'valid', status: 0, challenge: '' };
    }
    const name = apiKeyHeader(auth);
    const v = req.headers[name.toLowerCase()];
    if (typeof v !== 'string' || v === '') return { state: 'none', status: 401, challenge: `ApiKey ${REALM}, header="${name}"` };
    if (!safeEqual(v, auth.secret)) return { state: 'wrong', status: 403, challenge: '' };
    return { state: 'valid', status: 0, challenge: '' };
  }

  /** Sends the refusal of a request for its credentials. */
  function refuseAuth(res: ServerResponse, status: number, challenge: string): void {
    const headers: Record<string, string> = {};
    if (status === 401 && !has('auth-no-www-authenticate')) {
      // auth-multi-challenge: two challenges in one header (RFC 9110 §11.6.1 allows a list).
      headers['WWW-Authenticate'] = permits('auth-multi-challenge') ? `${challenge}, Signature ${REALM}, headers="date"` : challenge;
    }
    const message = status === 401 ? 'Authentication required' : 'Credentials not accepted';
    if (binding === 'HTTP+JSON') {
      headers['Content-Type'] = gen === 'v1.0' ? V1_REST_CT : 'application/json';
      res
        .writeHead(status, headers)
        .end(JSON.stringify({ error: { code: status, status: status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', message, details: [] } }));
    } else if (permits('auth-jsonrpc-error') && gen === 'v1.0') {
      // v1.0.1 §3.3.2 names a JSON-RPC custom error as one form of the rejection.
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
    } else {
      headers['Content-Type'] = 'application/json';
      res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
    }
  }

  /** true when authorised; otherwise the refusal was sent. */
  function checkAuth(req: IncomingMessage, res: ServerResponse, force = false): boolean {
    const auth = opts.auth;
    if (!auth && !force) return true;
    if (auth && has('auth-not-enforced') && !force) return true;
    const c = credentialState(req);
    if (c.state === 'valid') return true;
    // auth-optional: anonymous calls are served (credentials, when sent, must be right).
    if (c.state === 'none' && permits('auth-optional') && !force) return true;
    // auth-403: a missing credential is refused with 403 Forbidden.
    if (c.state === 'none' && permits('auth-403')) refuseAuth(res, 403, '');
    else refuseAuth(res, c.status, c.challenge);
    return false;
  }

  return { REALM, credentialState, refuseAuth, checkAuth };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
