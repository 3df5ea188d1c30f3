/**
 * What the tap relays to: the agent's card (found once through the engine's front door, src/engine/target, as a run
 * and a console session find it), its generation, and the interfaces requests arrive for, each with the generation
 * and binding a request to it is judged against.
 */
import { canonicalBinding } from '../card/detect';
import { createHttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import { timerSleep, type Host } from '../ports';
import { Redactor } from '../redact';
import { inspectTarget } from '../target';
import type { TapTargetInfo } from './types';

export interface TapInterface {
  /** The interface URL as the card declares it, without a trailing slash. */
  url: string;
  binding: Binding;
  generation: Generation;
  tenant?: string;
}

export interface TapTarget {
  info: TapTargetInfo;
  cardUrl?: string;
  generation?: Generation;
  binding?: Binding;
  interfaces: TapInterface[];
}

/** A generation from an interface's protocolVersion, else the card's. */
function generationOf(protocolVersion: string | undefined, card: Generation): Generation {
  if (!protocolVersion) return card;
  if (/^1\./.test(protocolVersion)) return 'v1.0';
  if (/^0\.3/.test(protocolVersion)) return 'v0.3';
  if (/^0\.2/.test(protocolVersion)) return 'v0.2';
  return card;
}

/** A Host over the tap's fetch, for the engine's discovery. */
export function tapHost(fetch: (req: Request) => Promise<Response>, now: () => number): Host {
  let n = 0;
  return {
    fetch: (url, init) => fetch(new Request(url, init)),
    now,
    sleep: timerSleep,
    randomUUID: () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
    transport: 'direct',
  };
}

/** Discovers the agent (never rejects): undefined when no card could be read. */
export async function resolveTarget(host: Host, agentUrl: string): Promise<TapTarget | undefined> {
  const http = createHttpContext(host, { redactor: new Redactor(), limits: { requestTimeoutMs: 10_000, maxBodyBytes: 1024 * 1024 }, idPrefix: 'tap-' });
  const found = await inspectTarget(http, 'agent', agentUrl, { kind: 'none' }, { warmupRetries: 0, timeoutMs: 10_000 });
  if (found.raw === undefined || !found.discovery.cardUrl) return undefined;
  const g = found.detection.generation;
  const interfaces: TapInterface[] = [];
  const notRelayed: TapTargetInfo['notRelayed'] = [];
  for (const i of found.card.interfaces) {
    const b = canonicalBinding(String(i.binding));
    if (b === 'GRPC') {
      notRelayed.push({
        url: i.url,
        binding: String(i.binding),
        reason: 'gRPC interfaces are not relayed (HTTP/2 binary framing): the tap leaves them out of the card',
      });
      continue;
    }
    if (!b || !/^https?:\/\//i.test(i.url)) continue;
    interfaces.push({ url: i.url.replace(/\/+$/, ''), binding: b, generation: generationOf(i.protocolVersion, g), ...(i.tenant && { tenant: i.tenant }) });
  }
  const info: TapTargetInfo = {
    agentUrl,
    cardUrl: found.discovery.cardUrl,
    ...(found.card.name && { agentName: found.card.name }),
    generation: g,
    ...(found.detection.binding && { binding: found.detection.binding }),
    interfaces: found.card.interfaces.map((i) => ({
      url: i.url,
      binding: String(i.binding),
      ...(i.protocolVersion && { protocolVersion: i.protocolVersion }),
    })),
    requiredExtensions: found.card.capabilities.extensions.filter((e) => e.required && e.uri).map((e) => e.uri),
    notRelayed,
  };
  return { info, cardUrl: found.discovery.cardUrl, generation: g, ...(found.detection.binding && { binding: found.detection.binding }), interfaces };
}

/**
 * The interfaces a request to `upstreamUrl` is for (those with the longest matching URL: a card may declare one URL
 * for two protocol versions), and the path below it.
 */
export function interfacesFor(t: TapTarget | undefined, upstreamUrl: string): { candidates: TapInterface[]; path: string } {
  const noQuery = upstreamUrl.split('#')[0]!.split('?')[0]!;
  let len = -1;
  let candidates: TapInterface[] = [];
  for (const i of t?.interfaces ?? []) {
    if (noQuery !== i.url && !noQuery.startsWith(`${i.url}/`)) continue;
    if (i.url.length > len) {
      len = i.url.length;
      candidates = [i];
    } else if (i.url.length === len) candidates.push(i);
  }
  if (!candidates.length) {
    let path = '/';
    try {
      path = new URL(noQuery).pathname;
    } catch {
      /* keep / */
    }
    return { candidates, path };
  }
  return { candidates, path: noQuery.slice(len) };
}
