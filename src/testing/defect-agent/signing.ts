/**
 * Real card signatures for the test agent (features.signed): an ES256 key pair made when the agent starts, the card
 * signed as v1.0.1 §8.4.2 describes (JWS, detached payload: the RFC 8785 form of the card without `signatures`), and
 * the public key served as a JWKS at JWKS_PATH (named by the signature's `jku`).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import canonicalize from 'canonicalize';

/** Where the agent serves its public keys (under its base path). */
export const JWKS_PATH = '/.well-known/jwks.json';
const SIGNING_KID = 'test-key-1';

type Json = Record<string, unknown>;

export interface SignOptions {
  /** Absolute URL of the JWKS (the `jku` of the protected header); omitted when undefined. */
  jku?: string;
  /** The kid to name (default SIGNING_KID). */
  kid?: string;
  /** v0.3 permits "alg" in the unprotected header only (RFC 7515 §4). */
  algUnprotected?: boolean;
  /** Sign again (a new randomized ES256 signature) instead of reusing the one made for the same card. */
  fresh?: boolean;
}

export interface CardSigner {
  /** The public key set, `{ keys: [jwk] }`. */
  readonly jwks: Json;
  /** The `signatures` entry for `card` (its own `signatures` member left out of the payload). */
  sign(card: Json, o: SignOptions): Json;
}

const b64url = (x: string | Buffer) => Buffer.from(x).toString('base64url');

export function createCardSigner(): CardSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: SIGNING_KID, alg: 'ES256', use: 'sig' };
  const made = new Map<string, Json>();
  return {
    jwks: { keys: [jwk] },
    sign(card, o) {
      const rest = Object.fromEntries(Object.entries(card).filter(([k]) => k !== 'signatures'));
      const payload = canonicalize(rest) ?? '{}';
      const key = JSON.stringify([payload, o.jku, o.kid, o.algUnprotected]);
      const kept = made.get(key);
      if (kept && !o.fresh) return { ...kept };
      const kid = o.kid ?? SIGNING_KID;
      const head = o.algUnprotected
        ? { typ: 'JOSE', kid, ...(o.jku ? { jku: o.jku } : {}) }
        : { alg: 'ES256', typ: 'JOSE', kid, ...(o.jku ? { jku: o.jku } : {}) };
      const protectedB64 = b64url(JSON.stringify(head));
      const input = `${protectedB64}.${b64url(payload)}`;
      const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      const entry = { protected: protectedB64, signature: b64url(signature), ...(o.algUnprotected ? { header: { alg: 'ES256' } } : {}) };
      if (made.size > 100) made.clear();
      made.set(key, entry);
      return { ...entry };
    },
  };
}
