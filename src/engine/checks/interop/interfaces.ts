/** Interfaces a card declares: their protocol generation, and the v0.3 HTTP+JSON "/v1" prefix. */
import type { CardInterface } from '../../card/normalize';
import type { Generation } from '../../model/check';

/** The URL of a v0.3 HTTP+JSON base: the "/v1" prefix is added unless the declared URL already ends in it. */
export const restPrefix = (url: string, g: Generation) => (g === 'v1.0' || /\/v1$/.test(url.replace(/\/+$/, '')) ? '' : '/v1');

export function generationOf(i: CardInterface, fallback: Generation): Generation {
  const v = i.protocolVersion ?? '';
  if (/^1\./.test(v)) return 'v1.0';
  if (/^0\.3/.test(v)) return 'v0.3';
  if (/^0\.2/.test(v)) return 'v0.2';
  return fallback;
}
