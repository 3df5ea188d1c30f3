/** Card check: card signatures, when present, are well-formed JWS (verification is card.signatures.verified, ./signature-verify.ts). */
import { decodeProtectedHeader } from 'jose';
import { isRecord, typeName } from '../../util/json';
import { defineCheck, fail, skip } from '../define';
import { collect, nullIsAbsent } from './common';

/** The JWS Protected Header as a JSON object, or undefined when it does not decode to one (jose does the base64url). */
function protectedHeader(p: string): Record<string, unknown> | undefined {
  try {
    return decodeProtectedHeader({ protected: p });
  } catch {
    return undefined;
  }
}

export const cardSignatures = defineCheck({
  id: 'card.signatures',
  title: 'Card signatures, when present, are well-formed JWS',
  category: 'agent-card',
  level: 'MUST',
  tier: 'optional',
  phase: 'card',
  specRefs: { 'v0.3': 'v0.3.0 §5.5.6 AgentCardSignature', 'v1.0': 'v1.0.1 §8.4 Agent Card Signing (§8.4.2 Signature Format)' },
  recommendation:
    'Each signature needs "protected" (base64url of a JSON header with alg and kid, typ "JOSE" recommended) and "signature" (base64url), computed over the JCS-canonicalized card without "signatures" (v1.0 §8.4.1). @a2a-js/sdk offers AgentCardSignatureGenerator.',
  requires: ['card'],
  run: (c) => {
    const sigs = c.raw.signatures;
    // null: unset in ProtoJSON (v1.0); the v0.3 schema has no null.
    if (sigs === undefined || (sigs === null && nullIsAbsent(c.generation))) return skip('The card is not signed.', 'not-applicable');
    if (!Array.isArray(sigs)) return fail(`"signatures" should be a list, got ${typeName(sigs)}.`);
    const problems: string[] = [];
    sigs.slice(0, 10).forEach((s, i) => {
      if (!isRecord(s)) return void problems.push(`signatures[${i}] should be an object`);
      const b64 = /^[A-Za-z0-9_-]+$/;
      if (typeof s.protected !== 'string' || !b64.test(s.protected)) problems.push(`signatures[${i}].protected should be base64url`);
      else {
        const hdr = protectedHeader(s.protected);
        if (!isRecord(hdr)) problems.push(`signatures[${i}].protected does not decode to a JSON object`);
        else {
          // RFC 7515 §4: the JOSE Header is the union of the protected and the unprotected ("header") members.
          // v0.3 does not require "alg" to be protected; v1.0 §8.4.2 does.
          const unprotected = isRecord(s.header) ? s.header : {};
          if (typeof hdr.alg !== 'string' && !(c.generation !== 'v1.0' && typeof unprotected.alg === 'string')) {
            problems.push(
              `signatures[${i}] has no "alg" in its ${c.generation === 'v1.0' ? 'protected header (v1.0 §8.4.2 MUST)' : 'JOSE header (RFC 7515 §4.1.1 MUST)'}`,
            );
          }
          if (c.generation === 'v1.0' && typeof hdr.kid !== 'string') problems.push(`signatures[${i}] protected header has no "kid" (v1.0 §8.4.2 MUST)`);
        }
      }
      if (typeof s.signature !== 'string' || !b64.test(s.signature)) problems.push(`signatures[${i}].signature should be base64url`);
    });
    return collect(problems, [], `${sigs.length} well-formed signature(s) (whether they verify: card.signatures.verified).`, 'Signatures are malformed', []);
  },
});
