import { useId } from 'react';

/** The trusted key set as typed: empty (none), or a JWKS of public keys (RunOptions.jwks). */
export function parseJwks(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Trusted signing keys: not JSON. Paste a JWKS, {"keys": [...]}.' };
  }
  const keys = typeof value === 'object' && value !== null && 'keys' in value ? value.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) return { ok: false, error: 'Trusted signing keys: not a JWKS (a JSON object with a non-empty "keys" list).' };
  if (keys.some((k) => typeof k === 'object' && k !== null && 'd' in k)) {
    return { ok: false, error: 'Trusted signing keys: this holds a private key ("d"). Paste the public keys only.' };
  }
  return { ok: true, value };
}

/** Optional JWKS the run trusts to verify the card's signatures (before the signature's jku). */
export function JwksField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const id = useId();
  return (
    <details className="field jwks-field" open={!!value.trim() || !!error}>
      <summary>Trusted signing keys (optional)</summary>
      <label htmlFor={`${id}-jwks`}>JWKS to verify the card&apos;s signatures</label>
      <textarea
        id={`${id}-jwks`}
        rows={4}
        spellCheck={false}
        placeholder='{"keys": [{"kty": "EC", "crv": "P-256", "kid": "…", "x": "…", "y": "…"}]}'
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={`${id}-jwks-help`}
      />
      <p id={`${id}-jwks-help`} className={error ? 'help field-error' : 'help'}>
        {error ??
          "Public keys you trust (e.g. from the agent's provider). Without them a signature is checked with the keys at its jku, which the card itself names: that proves the card is intact, not who signed it."}
      </p>
    </details>
  );
}
