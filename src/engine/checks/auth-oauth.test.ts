/** The token endpoint and discovery judgements on hand-made answers: what RFC 6749 §5 / OIDC Discovery ask, and what fails. */
import { describe, expect, it } from 'vitest';
import { finish, type HttpResult } from '../http/exchange';
import { judgeDiscovery, judgeTokenAnswer } from './auth-oauth';

function answer(
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' },
): HttpResult {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const h = new Headers(headers);
  return finish({
    exchangeId: 'x1',
    url: 'https://idp.test/token',
    responded: true,
    status,
    headers: h,
    contentType: h.get('content-type') ?? '',
    text,
    bytes: text.length,
    truncated: false,
    bom: false,
    invalidUtf8: false,
    startedAt: 0,
    endedAt: 1,
  });
}

describe('judgeTokenAnswer', () => {
  it('a token answer as §5.1 asks, and a §5.2 refusal, are fine', () => {
    expect(judgeTokenAnswer(answer(200, { access_token: 't', token_type: 'Bearer', expires_in: 60 }))).toEqual([]);
    expect(judgeTokenAnswer(answer(400, { error: 'invalid_scope' }))).toEqual([]);
    expect(judgeTokenAnswer(answer(401, { error: 'invalid_client' }))).toEqual([]);
  });

  it('names each deviation', () => {
    expect(judgeTokenAnswer(answer(200, { access_token: 't' }, { 'content-type': 'text/plain' })).join('; ')).toMatch(
      /Content-Type "text\/plain".*no token_type.*Cache-Control: no-store/,
    );
    expect(judgeTokenAnswer(answer(200, { access_token: 't', token_type: 'mac', expires_in: '60' })).join('; ')).toMatch(/token_type "mac".*expires_in "60"/);
    expect(judgeTokenAnswer(answer(200, '<html>login</html>', { 'content-type': 'text/html' }))[0]).toMatch(/not a JSON object/);
    expect(judgeTokenAnswer(answer(401, { error: 'access_denied' })).join('; ')).toMatch(/not one of the §5.2 codes.*401 only for invalid_client/);
    expect(judgeTokenAnswer(answer(500, 'oops'))[0]).toMatch(/not a JSON object with an "error"|neither a token/);
    expect(judgeTokenAnswer(answer(302, ''))[0]).toMatch(/neither a token/);
  });
});

describe('judgeDiscovery', () => {
  const url = 'https://idp.test/realm/.well-known/openid-configuration';
  it('issuer, token_endpoint and client_credentials present: fine', () => {
    expect(
      judgeDiscovery(
        answer(200, { issuer: 'https://idp.test/realm', token_endpoint: 'https://idp.test/t', grant_types_supported: ['client_credentials'] }),
        url,
      ),
    ).toEqual([]);
  });
  it('a wrong issuer, no token endpoint, the default grant types', () => {
    const problems = judgeDiscovery(answer(200, { issuer: 'https://evil.test' }), url).join('; ');
    expect(problems).toMatch(/issuer "https:\/\/evil.test" is not the URL.*§4.3/);
    expect(problems).toMatch(/no token_endpoint/);
    expect(problems).toMatch(/default \(authorization_code, implicit\) excludes client_credentials/);
    expect(judgeDiscovery(answer(404, 'nope'), url)).toEqual(['HTTP 404 for the discovery document']);
  });
});
