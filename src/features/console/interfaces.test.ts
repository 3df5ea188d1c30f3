import { describe, expect, it } from 'vitest';
import { declaredInterfaces } from './interfaces';

describe('declaredInterfaces: the count said and the list agree (issue 25 item 6)', () => {
  it('a v0.3 card that repeats its main url in additionalInterfaces declares 2 interfaces, not 3', () => {
    const d = declaredInterfaces([
      { url: 'http://a/rpc', binding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://a/rpc', binding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://a/rest', binding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(d).toEqual({ count: 2, list: 'JSONRPC 0.3, HTTP+JSON 0.3' });
  });
  it('two URLs of one kind are counted and said', () => {
    const d = declaredInterfaces([
      { url: 'http://a/rpc', binding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://b/rpc', binding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://a/rest', binding: 'HTTP+JSON' },
    ]);
    expect(d).toEqual({ count: 3, list: 'JSONRPC 1.0 (2 URLs), HTTP+JSON' });
  });
});
