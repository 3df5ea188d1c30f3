// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsOf, EMPTY_DRAFT, type CredentialDraft } from '../lib/credentials';
import { cardOffersOAuth, CredentialFields } from './credential-fields';

afterEach(cleanup);

let last: CredentialDraft = EMPTY_DRAFT;
function Harness({ offerOAuth, layout }: { offerOAuth: boolean; layout?: 'stacked' | 'inline' }) {
  const [draft, setDraft] = useState<CredentialDraft>(EMPTY_DRAFT);
  const change = (next: CredentialDraft) => {
    last = next;
    setDraft(next);
  };
  return <CredentialFields id="f" draft={draft} onChange={change} offerOAuth={offerOAuth} help="in memory only" layout={layout} />;
}

describe('CredentialFields', () => {
  it('offers OAuth client credentials only when the card declares OAuth; the secret is a password input kept in the draft', () => {
    const { unmount } = render(<Harness offerOAuth={false} />);
    expect(screen.queryByRole('option', { name: /OAuth/ })).toBeNull();
    unmount();
    render(<Harness offerOAuth layout="inline" />);
    fireEvent.change(screen.getByLabelText('Credential type'), { target: { value: 'oauth2' } });
    const id = screen.getByLabelText('OAuth client id');
    fireEvent.change(id, { target: { value: 'client-1' } });
    const secret = screen.getByLabelText('OAuth client secret');
    expect(secret.getAttribute('type')).toBe('password');
    fireEvent.change(secret, { target: { value: 'top-secret' } });
    fireEvent.change(screen.getByLabelText('OAuth scope (optional)'), { target: { value: 'a2a:invoke' } });
    // Typing keeps focus on the same input (the fields are not remounted on each change).
    expect(screen.getByLabelText('OAuth client id')).toBe(id);
    expect(credentialsOf(last)).toEqual({ ok: true, value: { kind: 'oauth2', clientId: 'client-1', clientSecret: 'top-secret', scope: 'a2a:invoke' } });
  });

  it('keeps the labels of the other kinds and says what is missing', () => {
    render(<Harness offerOAuth={false} />);
    fireEvent.change(screen.getByLabelText('Credential type'), { target: { value: 'bearer' } });
    expect(screen.getByLabelText('Bearer token').getAttribute('type')).toBe('password');
    expect(credentialsOf(last)).toEqual({ ok: false, error: 'Enter the bearer token, or choose "No credentials".' });
    expect(credentialsOf({ ...EMPTY_DRAFT, kind: 'oauth2', oauthClientId: 'c' })).toEqual({ ok: false, error: 'Enter the OAuth client secret.' });
  });

  it('cardOffersOAuth reads the card as served (v0.x and v1.0 spellings) or normalized', () => {
    expect(cardOffersOAuth({ securitySchemes: { o: { oauth2SecurityScheme: { flows: {} } } } })).toBe(true);
    expect(cardOffersOAuth({ securitySchemes: { o: { openIdConnectSecurityScheme: { openIdConnectUrl: 'x' } } } })).toBe(true);
    expect(cardOffersOAuth({ securitySchemes: { o: { type: 'oauth2', flows: {} } } })).toBe(true);
    expect(cardOffersOAuth({ securitySchemes: { o: { type: 'openIdConnect', openIdConnectUrl: 'x' } } })).toBe(true);
    expect(cardOffersOAuth({ securitySchemes: { k: { type: 'apiKey' } } })).toBe(false);
    expect(cardOffersOAuth(undefined)).toBe(false);
  });
});
