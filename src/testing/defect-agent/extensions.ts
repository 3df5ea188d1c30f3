/**
 * Extensions of the test agent (features.extensions, v0.3 and v1.0): the card declares an optional and a required
 * extension; a message names the extensions it activates in `A2A-Extensions` (v1.0; `X-A2A-Extensions` in v0.3),
 * the answer lists the ones activated in the same header. v1.0.1 §3.3.4: a message that does not activate the
 * required extension is refused with ExtensionSupportRequiredError (-32008, HTTP+JSON 400); §4.6.3: extensions the
 * agent does not know are ignored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, E } from './errors';
import type { DefectName } from './defects';
import type { Generation } from './dialect';
import type { PermittedName } from './permitted';

type Json = Record<string, unknown>;

/** What the extension rules read of the agent (state.ts AgentState; not imported: card.ts -> here -> state.ts -> card.ts was a cycle). */
interface ExtensionGateState {
  readonly gen: Generation;
  readonly features: { readonly extensions?: boolean };
  has(d: DefectName): boolean;
  permits(p: PermittedName): boolean;
}

export const EXT_OPTIONAL = 'https://a2a-interop.test/ext/citations/v1';
export const EXT_REQUIRED = 'https://a2a-interop.test/ext/consent/v1';

/** The header that carries extension URIs in this generation (none before v0.3 here). */
const extensionHeader = (gen: string): string | undefined => (gen === 'v1.0' ? 'A2A-Extensions' : gen === 'v0.3' ? 'X-A2A-Extensions' : undefined);

/** capabilities.extensions of the card (features.extensions). */
export function declaredExtensions(): Json[] {
  return [
    { uri: EXT_OPTIONAL, description: 'Citations for the sources of an answer, in artifact metadata.', required: false },
    { uri: EXT_REQUIRED, description: 'The user consents to processing; the agent serves no message without it.', required: true, params: { policy: 'v1' } },
  ];
}

/** The URIs a request names in the generation's header (comma-separated, repeated headers joined). */
function requestedExtensions(req: IncomingMessage, gen: string): string[] {
  const name = extensionHeader(gen);
  const raw = name ? req.headers[name.toLowerCase()] : undefined;
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Applies the extension rules to a message (send or stream) before it is handled: throws the A2A error to answer,
 * or sets the response header listing the activated extensions.
 */
export function gateExtensions(s: ExtensionGateState, req: IncomingMessage, res: ServerResponse): void {
  const name = extensionHeader(s.gen);
  if (!s.features.extensions || !name) return;
  const asked = requestedExtensions(req, s.gen);
  const known = new Set([EXT_OPTIONAL, EXT_REQUIRED]);
  // extension-unknown-refused: an extension this agent does not support is refused instead of ignored.
  const unknown = asked.filter((u) => !known.has(u));
  if (unknown.length && s.has('extension-unknown-refused')) throw E.invalidParams(`Unsupported extension: ${unknown[0]?.slice(0, 120)}`);
  // extension-required-not-enforced: a message without the required extension is served anyway.
  if (s.gen === 'v1.0' && !asked.includes(EXT_REQUIRED) && !s.has('extension-required-not-enforced')) throw extensionRequired(EXT_REQUIRED);
  const activated = asked.filter((u) => known.has(u));
  if (activated.length && !res.headersSent && !s.permits('extension-activated-not-listed')) res.setHeader(name, activated.join(','));
}

const extensionRequired = (uri: string) => new A2AError(-32008, `This agent requires the extension ${uri}: activate it with the A2A-Extensions header`);
