/** URL helpers for agent-supplied strings: only http(s) URLs ever become links. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4096) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export type UrlProblem = { ok: true; url: string } | { ok: false; error: string };

/** Validates what the user typed as an agent URL, with a next step when it is wrong. */
export function checkAgentUrl(input: string, label = 'Agent URL'): UrlProblem {
  const v = input.trim();
  if (!v) return { ok: false, error: `${label} is empty. Enter the agent's base URL, e.g. https://agent.example.com.` };
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return { ok: false, error: `${label} "${v.slice(0, 200)}" is not a valid URL. Include the scheme, e.g. https://agent.example.com.` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { ok: false, error: `${label} must start with http:// or https:// (got ${u.protocol}).` };
  }
  if (u.username || u.password) {
    return { ok: false, error: `${label} must not contain a user name or password; use the credentials fields instead.` };
  }
  return { ok: true, url: u.toString() };
}

/** What the user typed, with a scheme added when it had none (`localhost:3000` → `http://localhost:3000`). */
export interface CompletedUrl {
  /** The text to check and run (unchanged when nothing was added). */
  url: string;
  /** The scheme added, when one was. */
  added?: 'http://' | 'https://';
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
/** host[:port][/path…]: a hostname, an IPv4 address or a bracketed IPv6 address, nothing else before the path. */
const BARE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?([/?#].*)?$/i;

/**
 * Completes a URL typed without a scheme instead of refusing it: `http://` for this machine (localhost, 127.x,
 * [::1]), `https://` for anything else. Only a bare host (with an optional port and path) is completed: text with
 * a scheme of its own (`ftp://`, `mailto:`) is left for `checkAgentUrl` to explain.
 */
export function completeAgentUrl(input: string): CompletedUrl {
  const v = input.trim();
  if (!v || /^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return { url: v };
  const m = BARE_HOST.exec(v);
  if (!m) return { url: v };
  const added = LOOPBACK.test(m[1]!) ? 'http://' : 'https://';
  return { url: `${added}${v}`, added };
}
