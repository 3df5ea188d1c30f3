/**
 * Where a request to the tap goes, and the card the client is given: every interface URL of the agent's card is
 * rewritten to the tap (`<base><path below the agent URL>`; an interface on another origin as `<base>~<n>/<path>`),
 * and a path below the tap is mapped back to the agent. Only URLs the agent URL or its card named are ever reached.
 */
import { canonicalBinding } from '../card/detect';
import { isRecord } from '../util/json';

const CARD_PATH = /\/\.well-known\/(agent-card|agent)\.json$/;

/** The agent URL without its card path, query, fragment or trailing slash: what tap paths are relative to. */
function agentBaseOf(agentUrl: string): string {
  const u = new URL(agentUrl);
  u.hash = '';
  u.search = '';
  u.pathname = u.pathname.replace(CARD_PATH, '').replace(/\/+$/, '');
  return u.toString().replace(/\/+$/, '');
}

/** A request path (below the tap's base) that asks for the agent's card. */
export const isCardPath = (rest: string): boolean => /(^|\/)\.well-known\/(agent-card|agent)\.json$/.test(rest.split('?')[0] ?? '');

export class RouteTable {
  readonly agentBase: string;
  /** Other origins the card's interfaces live on (`~<n>` in tap paths); bounded. */
  private readonly origins: string[] = [];

  constructor(agentUrl: string) {
    this.agentBase = agentBaseOf(agentUrl);
  }

  /** The tap URL a client uses for an agent URL (`base` ends with `/`); undefined when it is not http(s). */
  toTap(url: string, base: string): string | undefined {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return undefined;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    const s = u.toString();
    if (s === this.agentBase) return base.replace(/\/$/, '');
    if (s.startsWith(`${this.agentBase}?`)) return `${base.replace(/\/$/, '')}${s.slice(this.agentBase.length)}`;
    if (s.startsWith(`${this.agentBase}/`)) return `${base}${s.slice(this.agentBase.length + 1)}`;
    let n = this.origins.indexOf(u.origin);
    if (n < 0) {
      if (this.origins.length >= 16) return undefined;
      n = this.origins.push(u.origin) - 1;
    }
    return `${base}~${n}/${s.slice(u.origin.length + 1)}`;
  }

  /**
   * The agent URL of a request to the tap: `rest` is what follows the tap's base (`undefined`: the base without its
   * trailing slash), with its query. Undefined for an origin the card never named.
   */
  toUpstream(rest: string | undefined): string | undefined {
    if (rest === undefined) return this.agentBase;
    if (rest.startsWith('?')) return `${this.agentBase}${rest}`;
    const m = /^~(\d+)\/(.*)$/s.exec(rest);
    if (m) {
      const origin = this.origins[Number(m[1])];
      return origin ? `${origin}/${m[2]}` : undefined;
    }
    return `${this.agentBase}/${rest}`;
  }
}

export interface RewrittenCard {
  card: unknown;
  /** Interfaces the tap cannot relay (gRPC), removed from the card the client sees. */
  notRelayed: { url: string; binding: string; reason: string }[];
  notes: string[];
}

const GRPC_REASON = 'gRPC is HTTP/2 with binary framing: the tap relays HTTP/1.1 JSON and SSE only, so this interface is left out of the card the client sees';

function bindingOf(i: Record<string, unknown>): string {
  const b = i.protocolBinding ?? i.transport;
  return typeof b === 'string' ? b : '';
}

/** The card with every interface URL pointing at the tap (`base` ends with `/`). Never throws. */
export function rewriteCard(raw: unknown, routes: RouteTable, base: string): RewrittenCard {
  const notRelayed: RewrittenCard['notRelayed'] = [];
  const notes: string[] = [];
  if (!isRecord(raw)) return { card: raw, notRelayed, notes };
  const card: Record<string, unknown> = { ...raw };
  const rewriteList = (key: 'supportedInterfaces' | 'additionalInterfaces') => {
    const list = card[key];
    if (!Array.isArray(list)) return;
    const out: unknown[] = [];
    for (const i of list) {
      if (!isRecord(i)) {
        out.push(i);
        continue;
      }
      const url = typeof i.url === 'string' ? i.url : '';
      if (canonicalBinding(bindingOf(i)) === 'GRPC') {
        notRelayed.push({ url, binding: bindingOf(i), reason: GRPC_REASON });
        continue;
      }
      const to = routes.toTap(url, base);
      out.push(to ? { ...i, url: to } : i);
    }
    card[key] = out;
  };
  rewriteList('supportedInterfaces');
  rewriteList('additionalInterfaces');
  if (typeof card.url === 'string') {
    const grpcPreferred = canonicalBinding(typeof card.preferredTransport === 'string' ? card.preferredTransport : '') === 'GRPC';
    if (grpcPreferred) {
      notRelayed.push({ url: card.url, binding: String(card.preferredTransport), reason: GRPC_REASON });
      const alt = (Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []).find(
        (i) => isRecord(i) && canonicalBinding(bindingOf(i)) !== 'GRPC',
      );
      if (isRecord(alt) && typeof alt.url === 'string') {
        card.url = alt.url;
        card.preferredTransport = bindingOf(alt);
        notes.push(`The card prefers gRPC; the client is offered ${bindingOf(alt)} through the tap instead.`);
      }
    } else {
      const to = routes.toTap(card.url, base);
      if (to) card.url = to;
    }
  }
  if (Array.isArray(raw.signatures) && raw.signatures.length) {
    notes.push(
      'The card is signed: the rewritten card the client gets through the tap no longer matches its signatures (the signatures are passed on as they are).',
    );
  }
  return { card, notRelayed, notes };
}
