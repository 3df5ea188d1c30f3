import type { Binding, Generation } from '../model/check';
import { isRecord } from '../util/json';
import type { CardInterface, NormalizedCard } from './normalize';

export interface Detection {
  /** The generation of the card. */
  generation: Generation;
  /** The generation spoken with the agent: the card's, or 0.3 when its v0.3 interfaces were asked for. */
  testedGeneration: Generation;
  /** `high` when a field unique to the generation decided it; `low` when it was a best guess. */
  confidence: 'high' | 'low';
  binding?: Binding;
  endpointUrl?: string;
  tenant?: string;
  /** The interface chosen for testing. */
  selected?: CardInterface;
  /** Other testable interfaces the card declares (for the binding-parity interop check). */
  others: CardInterface[];
  /** Why: one sentence per clue, shown to the user. */
  evidence: string[];
  /** Set when no interface can be tested (e.g. gRPC only). */
  untestable?: string;
}

const LEGACY_TOP_LEVEL = ['preferredTransport', 'additionalInterfaces', 'supportsAuthenticatedExtendedCard'] as const;

/** Maps the many spellings of bindings seen in cards to ours. */
export function canonicalBinding(b: string): Binding | undefined {
  const k = b
    .trim()
    .toUpperCase()
    .replace(/[\s_-]/g, '');
  if (k === 'JSONRPC' || k === 'JSONRPC2.0' || k === 'JSONRPC2') return 'JSONRPC';
  if (k === 'HTTP+JSON' || k === 'HTTPJSON' || k === 'REST' || k === 'HTTP') return 'HTTP+JSON';
  if (k === 'GRPC') return 'GRPC';
  return undefined;
}

/** Which interface the user wants tested when the card declares several. */
export interface InterfacePreference {
  binding?: Binding;
  /** Major.Minor, e.g. "0.3" to test the v0.3 compatibility interfaces of a v1.0 card. */
  protocolVersion?: string;
  /**
   * The host can speak gRPC (Host.grpc): v1.0 gRPC interfaces are testable, after the HTTP-based ones (more checks
   * apply there) unless `binding: 'GRPC'` asks for them. Set by the runner, not by users.
   */
  grpc?: boolean;
}

/**
 * Decides the protocol generation and binding from the card, as a2a-js `isLegacyAgentCard` does
 * (a v1.0 card has `supportedInterfaces`; older cards a top-level `url`, v0.3 adds `protocolVersion`), and explains the decision.
 */
export function detectGeneration(raw: unknown, card: NormalizedCard, cardSource?: string, prefer: InterfacePreference = {}): Detection {
  const c = isRecord(raw) ? raw : {};
  const evidence: string[] = [];
  let generation: Generation;
  let confidence: Detection['confidence'] = 'high';

  const si = Array.isArray(c.supportedInterfaces) ? c.supportedInterfaces : undefined;
  if (si && si.length > 0) {
    generation = 'v1.0';
    evidence.push(`supportedInterfaces has ${si.length} entr${si.length === 1 ? 'y' : 'ies'} (a v1.0 field)`);
    const versions = card.interfaces.filter((i) => i.source === 'supportedInterfaces').map((i) => i.protocolVersion ?? '?');
    evidence.push(`interface protocolVersion values: ${[...new Set(versions)].join(', ')}`);
    if (!versions.some((v) => /^1\./.test(v)) && versions.some((v) => /^0\.3/.test(v))) {
      generation = 'v0.3';
      evidence.push('no interface declares protocolVersion 1.x, only 0.3: testing as v0.3');
    }
  } else if (typeof c.protocolVersion === 'string' && /^0\.3/.test(c.protocolVersion)) {
    generation = 'v0.3';
    evidence.push(`protocolVersion is "${c.protocolVersion}"`);
  } else if (typeof c.protocolVersion === 'string' && /^0\.2/.test(c.protocolVersion)) {
    generation = 'v0.2';
    evidence.push(`protocolVersion is "${c.protocolVersion}"`);
  } else if (typeof c.protocolVersion === 'string' && /^1\./.test(c.protocolVersion)) {
    generation = 'v1.0';
    confidence = 'low';
    evidence.push(`protocolVersion is "${c.protocolVersion}" at the top level, but v1.0 cards declare versions per supportedInterfaces entry`);
  } else if (LEGACY_TOP_LEVEL.some((f) => f in c)) {
    generation = c.securitySchemes !== undefined || 'preferredTransport' in c ? 'v0.3' : 'v0.2';
    confidence = 'low';
    evidence.push(`no protocolVersion, but ${LEGACY_TOP_LEVEL.filter((f) => f in c).join(', ')} present (v0.2.x/v0.3 fields)`);
  } else if (isRecord(c.authentication)) {
    generation = 'legacy';
    evidence.push('authentication.schemes present (a field of the original A2A card, removed in v0.2)');
  } else if (c.securitySchemes !== undefined || Array.isArray(c.defaultInputModes) || typeof c.description === 'string') {
    generation = cardSource === 'agent.json' && c.securitySchemes === undefined ? 'legacy' : 'v0.2';
    confidence = 'low';
    evidence.push(
      generation === 'v0.2'
        ? 'no protocolVersion; securitySchemes/defaultInputModes/description suggest v0.2.0-0.2.4'
        : 'no protocolVersion and served at /.well-known/agent.json: assuming the legacy dialect',
    );
  } else {
    generation = 'legacy';
    confidence = 'low';
    evidence.push('no field unique to v0.2, v0.3 or v1.0: assuming the legacy dialect');
  }
  if (cardSource) evidence.push(`card served at ${cardSource === 'direct' ? 'the URL given' : `/.well-known/${cardSource}`}`);

  // A v1.0 card may also list v0.3 interfaces (a2a-js legacyCompat); the user may ask to test those.
  const cardGeneration = generation;
  const wantsV03 = generation === 'v1.0' && prefer.protocolVersion !== undefined && /^0\.3/.test(prefer.protocolVersion);
  if (wantsV03) {
    generation = 'v0.3';
    evidence.push("testing the card's protocolVersion 0.3 interfaces, as requested");
  }
  // Binding: the first testable interface in preference order.
  const candidates =
    generation === 'v1.0' || (si && si.length)
      ? card.interfaces.filter((i) => i.source === 'supportedInterfaces')
      : card.interfaces.filter((i) => i.source !== 'supportedInterfaces');
  const versionOk = (i: CardInterface) =>
    i.source !== 'supportedInterfaces' ||
    (generation === 'v1.0' ? /^1\./.test(i.protocolVersion ?? '') : generation === 'v0.3' && si?.length ? /^0\.3/.test(i.protocolVersion ?? '') : true);
  const usable = candidates.filter((i) => {
    const b = canonicalBinding(String(i.binding));
    return (b === 'JSONRPC' || b === 'HTTP+JSON') && versionOk(i) && /^https?:\/\//i.test(i.url);
  });
  // gRPC (v1.0 only): after the HTTP-based interfaces, when the host can call it.
  if (prefer.grpc && generation === 'v1.0')
    usable.push(...candidates.filter((i) => canonicalBinding(String(i.binding)) === 'GRPC' && versionOk(i) && /^[^\s]+$/.test(i.url)));
  const preferred = prefer.binding ? usable.filter((i) => canonicalBinding(String(i.binding)) === prefer.binding) : usable;
  if (prefer.binding && !preferred.length && usable.length) {
    evidence.push(`no ${prefer.binding} interface to test as requested; using the card's preferred one`);
  } else if (prefer.binding && preferred.length) {
    evidence.push(`${prefer.binding} requested`);
  }
  const testable = preferred.length ? [...preferred, ...usable.filter((i) => !preferred.includes(i))] : usable;
  const first = candidates.find(versionOk) ?? candidates[0];
  const det: Detection = { generation: cardGeneration, testedGeneration: generation, confidence, evidence, others: [] };
  if (generation === 'legacy' || generation === 'v0.2') {
    // Only JSON-RPC existed before v0.3 (v0.2.4+ could declare others, rarely served).
    const pick = (prefer.binding ? testable[0] : undefined) ?? testable.find((i) => canonicalBinding(String(i.binding)) === 'JSONRPC') ?? testable[0];
    if (pick) {
      det.selected = pick;
      det.binding = canonicalBinding(String(pick.binding));
      det.endpointUrl = pick.url;
    }
  } else if (testable.length) {
    det.selected = testable[0];
    det.binding = canonicalBinding(String(testable[0]!.binding));
    det.endpointUrl = testable[0]!.url;
    det.tenant = testable[0]!.tenant || undefined;
    det.others = testable.slice(1).filter((i) => !(i.url === det.endpointUrl && canonicalBinding(String(i.binding)) === det.binding));
  }
  if (first && det.selected && first !== det.selected) {
    evidence.push(
      `the preferred interface is ${first.binding} at ${first.url}; ${canonicalBinding(String(first.binding)) === 'GRPC' ? (prefer.grpc ? 'the HTTP-based interfaces come first (more checks apply; ask for GRPC to test it)' : 'gRPC cannot be tested from a browser') : 'it is not testable'}, so testing ${det.binding} instead`,
    );
  }
  if (det.selected) {
    evidence.push(`testing ${det.binding} at ${det.endpointUrl}${det.tenant ? ` (tenant "${det.tenant}")` : ''}`);
  } else if (candidates.some((i) => canonicalBinding(String(i.binding)) === 'GRPC')) {
    det.untestable = prefer.grpc
      ? 'The card declares only gRPC interfaces, and none of them is a v1.0 interface with a usable URL (host:port).'
      : 'The card declares only gRPC interfaces; a browser cannot call gRPC: run the CLI or the local server (npm start), which can.';
    det.binding = 'GRPC';
    evidence.push(det.untestable);
  } else {
    det.untestable = 'The card declares no usable endpoint (no absolute http(s) URL with a JSON-RPC or HTTP+JSON binding).';
    evidence.push(det.untestable);
  }
  return det;
}
