/**
 * Why a resolved target cannot be talked to, in one sentence saying what to check: the same words for every door
 * that talks to an agent one exchange at a time (a console or MCP session, the tap). A run says it through the
 * level's not-assessed message (report/level.ts), from the same `info.reach` and `info.error`.
 */
import type { Credentials } from '../model/credentials';
import type { Redactor } from '../redact';
import { isRecord } from '../util/json';
import type { ResolvedTarget } from './resolve';

export interface TargetProblem {
  reason: 'invalid-url' | 'unreachable' | 'not-a2a' | 'credentials-required' | 'credentials-rejected' | 'untestable' | 'tool-failure' | 'invalid-card';
  message: string;
}

/** Undefined when the target has a dialect to talk with; else why not (messages redacted with `r`). */
export function targetProblem(t: ResolvedTarget, url: string, creds: Credentials, r: Redactor): TargetProblem | undefined {
  const p = problemOf(t, r.url(url), creds, r);
  return p && { reason: p.reason, message: r.text(p.message) };
}

function problemOf(t: ResolvedTarget, url: string, creds: Credentials, r: Redactor): TargetProblem | undefined {
  const d = t.discovery;
  const tried = d.attempts
    .slice(0, 6)
    .map((a) => `${a.url} → ${a.status !== undefined ? `HTTP ${a.status}` : (a.note ?? 'no answer')}`)
    .join('; ');
  switch (d.reach) {
    case 'card':
      break;
    case 'invalid-url':
      return { reason: 'invalid-url', message: `${JSON.stringify(url)} is not a usable agent URL: ${d.invalidUrl ?? 'give an absolute http(s) URL'}.` };
    case 'unreachable':
      return {
        reason: 'unreachable',
        message: `Nothing answered at ${url}: ${r.text(d.unreachable?.message ?? 'no answer')} Is the agent running, and is the URL right?`,
      };
    case 'tool-failure':
      return {
        reason: 'tool-failure',
        message: `The card could not be fetched because of our side, not the agent: ${r.text(d.unreachable?.message ?? 'the request was stopped')}`,
      };
    case 'credentials-required':
      return {
        reason: 'credentials-required',
        message: `The agent at ${url} refused to serve its card without credentials (401/403). Give them as headers (e.g. {"Authorization": "Bearer …"}).`,
      };
    case 'credentials-rejected':
      return { reason: 'credentials-rejected', message: `The agent at ${url} refused the credentials given (401/403 with them too).` };
    case 'no-card':
      return {
        reason: 'not-a2a',
        message: `Something answered at ${url}, but no A2A agent card was found (${tried || 'no attempt'}). Is this an A2A agent? Give its base URL or the card URL itself.`,
      };
  }
  if (!isRecord(t.raw)) {
    const what = d.parseError ? `is not JSON (${d.parseError})` : 'is not a JSON object';
    return { reason: 'invalid-card', message: `The agent card at ${t.info.cardUrl ?? url} ${what}, so there is no endpoint to talk to.` };
  }
  if (creds.kind === 'oauth2') {
    if (!t.oauth)
      return {
        reason: 'credentials-rejected',
        message: 'OAuth client credentials were given, but the card declares no clientCredentials tokenUrl or openIdConnectUrl to get a token from.',
      };
    if (!t.oauth.authorization)
      return {
        reason: t.oauth.failure?.kind === 'tool' ? 'tool-failure' : 'credentials-rejected',
        message: `No access token: ${t.oauth.failure?.message ?? 'no answer'}.`,
      };
  }
  if (!t.dialect)
    return {
      reason: 'untestable',
      message:
        t.detection.untestable ?? 'The card declares no interface this tool can call (JSON-RPC or HTTP+JSON at an absolute http(s) URL, gRPC at host:port).',
    };
  return undefined;
}
