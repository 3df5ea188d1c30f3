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
