/**
 * What the dashboard says before a run when the chosen transport cannot reach the target.
 * Pure; the UI shows the string as text.
 */
import { addressRange, bareHost, isIpLiteral, isLocalhostName } from './policy.js';

export type ProxyKind = 'local' | 'hosted' | 'direct';

const RANGE_LABEL: Record<string, string> = {
  loopback: 'loopback (this machine)',
  private: 'private network',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'private (unique local) network',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

const PRIVATE_SUFFIXES = ['.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.home.arpa', '.private'];

const USE_LOCAL = 'Use the local proxy (`npm start`, same origin) to test agents on your machine or network.';

/**
 * The explanation when `url` cannot work through the selected proxy, else undefined.
 * A hosted proxy runs on Cloudflare Workers, which cannot reach private addresses, localhost or IP
 * literals at all; the run would only produce proxy errors.
 *
 * @example
 * explainTarget('http://192.168.1.20:8080/', { kind: 'hosted' });
 * // "192.168.1.20 is a private network address. The hosted proxy runs on Cloudflare's edge ..."
 */
export function explainTarget(url: string, proxy: { kind: ProxyKind }): string | undefined {
  if (proxy.kind !== 'hosted') return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined; // malformed URLs are reported by the form's own validation
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const host = bareHost(u);
  const edge = "The hosted proxy runs on Cloudflare's edge, which cannot reach";
  if (isIpLiteral(host)) {
    const range = addressRange(host) ?? 'unknown';
    if (range !== 'unicast') {
      return `${host} is a ${RANGE_LABEL[range] ?? range} address. ${edge} private addresses or your machine. ${USE_LOCAL}`;
    }
    return `${edge} IP addresses directly, only host names. Give the agent a DNS name, or use the local proxy (\`npm start\`).`;
  }
  if (isLocalhostName(host)) {
    return `${host} means the proxy's own machine. ${edge} your computer. ${USE_LOCAL}`;
  }
  const h = host.replace(/\.$/, '');
  if (!h.includes('.') || PRIVATE_SUFFIXES.some((s) => h.endsWith(s))) {
    return `${host} looks like a name on a private network. ${edge} names that only resolve inside your network. ${USE_LOCAL}`;
  }
  return undefined;
}
