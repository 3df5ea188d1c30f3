/**
 * Credentials travel only over https, or plain HTTP to this machine (a loopback address or a `localhost` name): the
 * rule RFC 6749 §2.3.1 sets for OAuth client secrets, applied to every credential of a run (a bearer token, an API
 * key, an OAuth access token). A card is untrusted text: an endpoint it names on plain HTTP elsewhere must not receive
 * the user's token in clear. The host may allow it for local testing (`Host.allowInsecureCredentials`).
 */
import type { TransportError } from '../model/events';
import type { HttpContext } from './context';

/** https, or http to a loopback host (127.0.0.0/8, [::1], localhost and *.localhost). */
export function secureOrLoopback(u: string): boolean {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const h = url.hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '[::1]';
}

/**
 * The refusal of a request that carries one of the run's secrets (a value the redactor masks) in a header or the
 * query to a URL that is neither https nor loopback; undefined when it may go.
 */
export function insecureCredentialError(ctx: HttpContext, url: string, headers: Record<string, string> | undefined): TransportError | undefined {
  if (ctx.host.allowInsecureCredentials || secureOrLoopback(url)) return undefined;
  const r = ctx.redactor;
  const carries = Object.values(headers ?? {}).some((v) => v !== '' && r.text(v) !== v) || r.text(url) !== url;
  if (!carries) return undefined;
  let where = url;
  try {
    where = new URL(url).origin;
  } catch {
    /* as given */
  }
  return {
    source: 'limit',
    code: 'insecure_credentials',
    message: `Not sent: this request carries the run's credentials and ${r.url(where)} is plain HTTP to a host that is not this machine, where anyone on the path could read them. Credentials go only over https (or http to localhost / 127.0.0.1 / [::1]). For local testing on a private network, allow it explicitly: A2A_ALLOW_INSECURE_CREDENTIALS=1 for the CLI and the MCP server, "Send credentials over plain HTTP to other machines" in the dashboard's settings.`,
    blame: 'tool',
  };
}
