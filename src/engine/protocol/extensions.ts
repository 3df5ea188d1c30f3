/**
 * Extension activation on the wire (v1.0.1 §3.2.6 service parameter `A2A-Extensions`; v0.2/v0.3 used
 * `X-A2A-Extensions`): the header name per generation, and the header that activates the card's REQUIRED
 * extensions, which every suite request carries so an agent that enforces them (§3.3.4) serves the suite
 * (errors.extension-required sends one message without it).
 */
import type { Generation } from '../model/check';

/** The request/response header naming extension URIs in generation `g`; legacy has no extensions. */
export function extensionHeaderName(g: Generation): string | undefined {
  if (g === 'v1.0') return 'A2A-Extensions';
  if (g === 'v0.3' || g === 'v0.2') return 'X-A2A-Extensions';
  return undefined;
}

/** The URIs of a header value (comma-separated, blanks dropped). */
export const splitExtensions = (v: string | null | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What the header rules read of a card (card/normalize.ts NormalizedCard: the protocol layer sits below the card's). */
interface DeclaredExtensions {
  readonly capabilities: { readonly extensions: readonly { readonly uri: string; readonly required: boolean }[] };
}

/** `{ [header]: "uri1,uri2" }` activating the card's required extensions, or `{}` when it declares none. */
export function requiredExtensionHeaders(g: Generation, card: DeclaredExtensions): Record<string, string> {
  const name = extensionHeaderName(g);
  const uris = card.capabilities.extensions.filter((e) => e.required && e.uri).map((e) => e.uri);
  return name && uris.length ? { [name]: [...new Set(uris)].join(',') } : {};
}
