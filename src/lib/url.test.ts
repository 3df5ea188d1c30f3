import { describe, expect, it } from 'vitest';
import { checkAgentUrl, completeAgentUrl } from './url';

describe('completeAgentUrl (issue 25 item 6: completed, not refused)', () => {
  it.each([
    ['localhost:3000', 'http://localhost:3000', 'http://'],
    ['127.0.0.1:4173/demo/v1', 'http://127.0.0.1:4173/demo/v1', 'http://'],
    ['[::1]:8080/a2a', 'http://[::1]:8080/a2a', 'http://'],
    ['agent.example.com', 'https://agent.example.com', 'https://'],
    ['  agent.example.com:8443/a2a?x=1 ', 'https://agent.example.com:8443/a2a?x=1', 'https://'],
    ['192.168.1.20:8080', 'https://192.168.1.20:8080', 'https://'],
  ])('%s becomes %s', (input, url, added) => {
    expect(completeAgentUrl(input)).toEqual({ url, added });
    expect(checkAgentUrl(completeAgentUrl(input).url).ok).toBe(true);
  });

  it.each(['http://127.0.0.1:9/agent', 'https://a.example', 'ftp://files.example', 'mailto:someone@example.com', 'not a url', 'javascript:alert(1)', ''])(
    'leaves %j as typed (a scheme of its own, or not a host)',
    (input) => {
      expect(completeAgentUrl(input)).toEqual({ url: input.trim() });
    },
  );

  it('what is left unchanged is still explained by checkAgentUrl', () => {
    expect(checkAgentUrl(completeAgentUrl('ftp://files.example').url)).toMatchObject({ ok: false, error: expect.stringMatching(/must start with http/) });
    expect(checkAgentUrl(completeAgentUrl('not a url').url)).toMatchObject({ ok: false, error: expect.stringMatching(/not a valid URL/) });
  });
});
