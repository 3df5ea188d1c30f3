/**
 * The credentials fieldset of the Run form and the console's Connect panel: the credential type and the fields of
 * that type (bearer token, API key, custom header, OAuth 2.0 client credentials). Secrets are password inputs; the
 * draft lives in the caller's state only (src/lib/credentials.ts).
 */
import type { ReactNode, Ref } from 'react';
import type { CredentialDraft, CredentialKind } from '../lib/credentials';

const OPTIONS: { value: CredentialKind; label: string }[] = [
  { value: 'none', label: 'No credentials' },
  { value: 'bearer', label: 'Bearer token' },
  { value: 'api-key', label: 'API key (header the card declares)' },
  { value: 'header', label: 'Custom header' },
  { value: 'oauth2', label: 'OAuth 2.0 client credentials (from the card)' },
];

export interface CredentialFieldsProps {
  /** Prefix of the element ids (useId of the form). */
  id: string;
  draft: CredentialDraft;
  onChange(next: CredentialDraft): void;
  /** The card declares an OAuth 2.0 / OpenID Connect scheme: offer client id/secret (always offered once chosen). */
  offerOAuth: boolean;
  /** Why the draft is incomplete (shown instead of `help`, and marks the type select invalid). */
  error?: string;
  help: ReactNode;
  /** `stacked`: one field per row (Run form); `inline`: fields side by side (console). */
  layout?: 'stacked' | 'inline';
  selectRef?: Ref<HTMLSelectElement>;
}

export function CredentialFields({ id, draft, onChange, offerOAuth, error, help, layout = 'stacked', selectRef }: CredentialFieldsProps) {
  // A function, not a component: a component defined here would be a new type each render and remount the inputs.
  const field = (key: string, children: ReactNode) =>
    layout === 'inline' ? (
      <span key={key} className="field-inline">
        {children}
      </span>
    ) : (
      <div key={key} className="field">
        {children}
      </div>
    );
  const secret = (key: 'token' | 'apiKey' | 'headerValue' | 'oauthClientSecret', suffix: string, label: string) =>
    field(
      suffix,
      <>
        <label htmlFor={`${id}-${suffix}`}>{label}</label>
        <input id={`${id}-${suffix}`} type="password" autoComplete="off" value={draft[key]} onChange={(e) => onChange({ ...draft, [key]: e.target.value })} />
      </>,
    );
  const plain = (key: 'apiKeyHeader' | 'headerName' | 'oauthClientId' | 'oauthScope', suffix: string, label: string, placeholder?: string) =>
    field(
      suffix,
      <>
        <label htmlFor={`${id}-${suffix}`}>{label}</label>
        <input id={`${id}-${suffix}`} placeholder={placeholder} value={draft[key]} onChange={(e) => onChange({ ...draft, [key]: e.target.value })} />
      </>,
    );
  const options = OPTIONS.filter((o) => o.value !== 'oauth2' || offerOAuth || draft.kind === 'oauth2');
  return (
    <fieldset className="credentials">
      <legend>Credentials</legend>
      {field(
        'ckind',
        <>
          <label htmlFor={`${id}-ckind`}>Credential type</label>
          <select
            ref={selectRef}
            id={`${id}-ckind`}
            value={draft.kind}
            aria-invalid={!!error}
            aria-describedby={`${id}-cred-help`}
            onChange={(e) => onChange({ ...draft, kind: e.target.value as CredentialKind })}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </>,
      )}
      {draft.kind === 'bearer' ? secret('token', 'token', 'Bearer token') : null}
      {draft.kind === 'api-key' ? (
        <>
          {secret('apiKey', 'apikey', 'API key')}
          {plain('apiKeyHeader', 'apikeyh', 'API key header (optional)', 'from the card, else X-API-Key')}
        </>
      ) : null}
      {draft.kind === 'header' ? (
        <>
          {plain('headerName', 'hname', 'Header name')}
          {secret('headerValue', 'hvalue', 'Header value')}
        </>
      ) : null}
      {draft.kind === 'oauth2' ? (
        <>
          {plain('oauthClientId', 'oauth-id', 'OAuth client id')}
          {secret('oauthClientSecret', 'oauth-secret', 'OAuth client secret')}
          {plain('oauthScope', 'oauth-scope', 'OAuth scope (optional)', "space-separated; default: the card's requirement")}
        </>
      ) : null}
      <p id={`${id}-cred-help`} className={error ? 'help field-error' : 'help'}>
        {error ?? help}
      </p>
    </fieldset>
  );
}

/**
 * True when a card's security schemes include OAuth 2.0 or OpenID Connect: the card as served (v0.x `type`, v1.0's
 * `oauth2SecurityScheme` / `openIdConnectSecurityScheme` wrappers) or normalized.
 */
export function cardOffersOAuth(card: unknown): boolean {
  if (typeof card !== 'object' || card === null || !('securitySchemes' in card)) return false;
  const schemes = card.securitySchemes;
  if (typeof schemes !== 'object' || schemes === null) return false;
  return Object.values(schemes).some(
    (s: unknown) =>
      typeof s === 'object' &&
      s !== null &&
      (('type' in s && (s.type === 'oauth2' || s.type === 'openIdConnect')) || 'oauth2SecurityScheme' in s || 'openIdConnectSecurityScheme' in s),
  );
}
