/** Card checks: protocol versions and interfaces (coherent declarations, spelled as the specification spells them). */
import { canonicalBinding } from '../../card/detect';
import { isRecord } from '../../util/json';
import { defineCheck, ev, skip } from '../define';
import { ALL, fixupsFor, judge } from './common';

/** The core binding names, spelled as the specification spells them. */
const CORE_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON'];
const isUri = (s: string) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s);

export const cardProtocolCoherence = defineCheck({
  id: 'card.protocol.coherence',
  title: 'Protocol version and interfaces are declared coherently',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    'v0.2': 'v0.2.6 §5.5 protocolVersion, preferredTransport, additionalInterfaces',
    'v0.3': 'v0.3.0 §5.6 Transport Declaration (§5.6.4 Validation Requirements)',
    'v1.0': 'v1.0.1 §8.3 Protocol Declaration, §4.4.6 AgentInterface, §3.6 Versioning',
  }),
  recommendation:
    'v1.0: list every interface in supportedInterfaces with url, protocolBinding (JSONRPC, HTTP+JSON, GRPC) and protocolVersion ("1.0"), preferred first. v0.3: set protocolVersion ("0.3.0") and preferredTransport to one of JSONRPC, GRPC, HTTP+JSON, and declare each additional interface with its url and transport.',
  requires: ['card'],
  run: (c) => {
    const raw = c.raw;
    const g = c.generation;
    const problems: string[] = [];
    const advisories: string[] = [];
    let advisoryReason: string;
    if (g === 'v1.0') {
      const si = c.card.interfaces.filter((i) => i.source === 'supportedInterfaces');
      if (!si.length) problems.push('supportedInterfaces is empty (v1.0 §5.7: required arrays MUST contain at least one element)');
      const rawSi = Array.isArray(raw.supportedInterfaces) ? raw.supportedInterfaces.slice(0, 50) : [];
      rawSi.forEach((x, n) => {
        if (!isRecord(x)) return; // reported by normalization
        const at = `supportedInterfaces[${n}]`;
        if (x.protocolBinding === undefined && x.transport !== undefined)
          problems.push(`${at}.protocolBinding is missing (REQUIRED; the entry uses the v0.3 name "transport")`);
        else if (typeof x.protocolBinding === 'string' && !x.protocolBinding.trim())
          problems.push(`${at}.protocolBinding is empty (REQUIRED: clients cannot tell how to call this interface)`);
        if (x.protocolVersion === undefined || x.protocolVersion === null) problems.push(`${at}.protocolVersion is missing (REQUIRED)`);
        else if (typeof x.protocolVersion === 'string' && !x.protocolVersion.trim()) problems.push(`${at}.protocolVersion is empty (REQUIRED)`);
      });
      if (si.length && !si.some((i) => /^1\./.test(i.protocolVersion ?? ''))) problems.push('no interface declares protocolVersion 1.x');
      const legacyFields = ['protocolVersion', 'preferredTransport', 'additionalInterfaces', 'supportsAuthenticatedExtendedCard', 'url'].filter(
        (f) => f in raw,
      );
      // A dual v0.3/v1.0 card (e.g. @a2a-js/sdk toCompatAgentCard with embedV1Interfaces) is permitted: v1.0 receivers ignore unrecognized fields (§5.7).
      if (legacyFields.length)
        advisories.push(
          `v0.3 top-level fields beside supportedInterfaces: ${legacyFields.join(', ')} (v1.0 clients ignore them; v0.3 clients read them, so keep them consistent with the v0.3 interfaces)`,
        );
      advisoryReason = 'v1.0 §5.7: implementations SHOULD ignore unrecognized fields, so v0.3 fields beside supportedInterfaces are permitted.';
    } else if (g === 'v0.3' || g === 'v0.2') {
      if (g === 'v0.3' && typeof raw.protocolVersion === 'string' && !/^0\.3(\.\d+)?$/.test(raw.protocolVersion))
        advisories.push(`protocolVersion "${raw.protocolVersion}" is not a 0.3.x version although the card is shaped as v0.3`);
      // v0.3.0 §5.6.1 calls preferredTransport REQUIRED; the schema makes it optional with default "JSONRPC": advice.
      if (g === 'v0.3' && (raw.preferredTransport === undefined || raw.preferredTransport === null))
        advisories.push(
          'preferredTransport is missing (v0.3.0 §5.6.1 says it is REQUIRED and MUST be present; the schema makes it optional with default "JSONRPC", which clients then assume for url)',
        );
      if (typeof raw.preferredTransport === 'string' && !CORE_BINDINGS.includes(raw.preferredTransport)) {
        advisories.push(
          `preferredTransport ${JSON.stringify(raw.preferredTransport)} is not one of JSONRPC, GRPC, HTTP+JSON${canonicalBinding(raw.preferredTransport) ? ` (spelled differently from "${canonicalBinding(raw.preferredTransport)}": clients match the exact string)` : ' (a custom transport; clients may not support it)'}`,
        );
      }
      const byUrl = new Map<string, Set<string>>();
      for (const i of c.card.interfaces) {
        const set = byUrl.get(i.url) ?? new Set<string>();
        set.add(String(canonicalBinding(String(i.binding)) ?? i.binding));
        byUrl.set(i.url, set);
      }
      for (const [u, set] of byUrl) {
        // v0.3 §5.6.2: interfaces MAY reuse URLs if multiple transports are available at the same endpoint; only calling them can tell a conflict.
        if (set.size > 1) advisories.push(`URL ${u} is declared with several transports (${[...set].join(', ')}); permitted when each is served there`);
      }
      advisoryReason =
        g === 'v0.3'
          ? 'v0.3 permits other transport values (§5.5.5 "Additional transport values MAY be used") and URLs shared by transports (§5.6.2 "MAY reuse URLs"); on a missing preferredTransport §5.6.1 (REQUIRED) and the schema (optional, default "JSONRPC") contradict each other.'
          : 'v0.2.6 sets no rule on preferredTransport values (an open form string) or on URLs shared by transports.';
    } else {
      return skip('The legacy card has no protocol version or interface fields.', 'not-applicable');
    }
    return judge({
      problems,
      advisories,
      fx: fixupsFor(c, 'card.protocol.coherence'),
      evidence: c.detection.evidence.map((e) => ev('detection', e)),
      ok: 'Protocol declarations are coherent.',
      bad: 'Protocol declarations are incoherent',
      advisoryReason,
    });
  },
});

export const cardProtocolConventions = defineCheck({
  id: 'card.protocol.conventions',
  title: 'Interface bindings and protocol versions are spelled as the spec spells them',
  category: 'agent-card',
  level: 'SHOULD',
  phase: 'card',
  specRefs: { 'v1.0': 'v1.0.1 §3.6 Versioning, §5.8 Custom Binding Identification' },
  recommendation:
    'Spell the core bindings exactly "JSONRPC", "HTTP+JSON" or "GRPC" (clients compare the strings), identify a custom binding by a URI (e.g. "https://example.com/bindings/websocket/v1"), and give protocolVersion as Major.Minor ("1.0", not "1.0.1").',
  requires: ['card'],
  run: (c) => {
    const raw = c.raw;
    const si = Array.isArray(raw.supportedInterfaces) ? raw.supportedInterfaces.slice(0, 50) : [];
    if (!si.some(isRecord)) return skip('The card declares no supportedInterfaces.', 'precondition');
    const problems: string[] = [];
    const advisories: string[] = [];
    si.forEach((i, n) => {
      if (!isRecord(i)) return;
      const b = i.protocolBinding;
      if (typeof b === 'string' && b.trim() && !CORE_BINDINGS.includes(b) && !isUri(b)) {
        const core = canonicalBinding(b);
        // §5.8: a custom binding SHOULD be a URI; a core binding spelled differently is neither.
        problems.push(
          core
            ? `supportedInterfaces[${n}].protocolBinding is spelled ${JSON.stringify(b)}; the core binding is "${core}" (clients match the exact string)`
            : `supportedInterfaces[${n}].protocolBinding ${JSON.stringify(b)} is neither a core binding nor a URI (v1.0 §5.8: custom bindings SHOULD be identified by a URI)`,
        );
      }
      const v = i.protocolVersion;
      if (typeof v === 'string' && v.trim()) {
        if (/^\d+\.\d+\.\d+/.test(v))
          problems.push(
            `supportedInterfaces[${n}].protocolVersion "${v}" has a patch number (v1.0 §3.6: patch version numbers SHOULD NOT be used in Agent Cards)`,
          );
        else if (!/^\d+\.\d+$/.test(v)) advisories.push(`supportedInterfaces[${n}].protocolVersion "${v}" is not Major.Minor (e.g. "1.0")`);
      }
    });
    return judge({
      problems,
      advisories,
      ok: `${si.filter(isRecord).length} interface(s), bindings and versions spelled as the spec spells them.`,
      bad: "Interface declarations do not follow the spec's conventions",
      advisoryReason: 'The version format is shown only by examples ("0.3", "1.0"), without a requirement word.',
    });
  },
});
