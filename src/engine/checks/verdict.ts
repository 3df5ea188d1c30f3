import type { HttpResult } from '../http/client';
import type { CheckStatus, Evidence, SkipKind } from '../model/check';
import type { TransportError } from '../model/events';
import { transportFailureMessage } from '../judges/exchange';
import type { RuleId } from '../spec';
import { stringifyBounded, truncate } from '../util/json';
import type { Credentials } from '../model/credentials';

/** The outcome a check's body returns; the runner adds id, timing, level and spec reference. */
export interface Verdict {
  status: CheckStatus;
  message: string;
  evidence?: Evidence[];
  /** Overrides the check's default recommendation (more specific advice). */
  recommendation?: string;
  skipKind?: SkipKind;
  proxyError?: string;
  /** Marks this failure as critical (server crash during the check). */
  critical?: boolean;
  /**
   * A failure that the spec does not back with a MUST or SHOULD in this case (e.g. two passages contradict
   * each other): reported as an advisory, with this reason.
   */
  advisory?: string;
  /**
   * The shared rule this finding breaks (src/engine/judges/rules.ts): the result then carries the rule's strength and
   * sentences for the generation, whatever the check's own, so one rule has one strength in every check and door.
   */
  rule?: RuleId;
}

export const pass = (message: string, evidence?: Evidence[]): Verdict => ({ status: 'pass', message, evidence });
export const fail = (message: string, evidence?: Evidence[], recommendation?: string): Verdict => ({
  status: 'fail',
  message,
  evidence,
  recommendation,
});
export const skip = (message: string, kind: SkipKind = 'not-applicable', evidence?: Evidence[]): Verdict => ({
  status: 'skip',
  message,
  skipKind: kind,
  evidence,
});
/** Our tool (or proxy) failed: never the agent's fault. */
export const toolError = (message: string, evidence?: Evidence[], proxyError?: string): Verdict => ({
  status: 'error',
  message,
  evidence,
  proxyError,
});

/** How to give a run more time, in words for both the CLI and the dashboard. */
export const TIMEOUT_KNOB = 'raise the per-task budget (CLI --timeout SECONDS; the dashboard\'s "Timeout per task")';

/** Our budget ended before the agent finished: not the agent's fault. Says which budget and how to raise it. */
export const toolLimit = (message: string, evidence?: Evidence[]): Verdict => ({ status: 'skip', skipKind: 'tool-limit', message, evidence });

/** Evidence helpers: values are bounded (and the HTTP layer has already redacted bodies it logs). */
export const ev = (label: string, value: unknown, extra?: Partial<Evidence>): Evidence => ({
  label,
  value: typeof value === 'string' ? truncate(value, 2000) : stringifyBounded(value, 2000),
  ...extra,
});

export function exchangeEvidence(r: HttpResult, label = 'response'): Evidence {
  const head = r.responded
    ? `HTTP ${r.status} ${r.contentType || '(no content type)'}${r.error ? ` (body incomplete: ${r.error.message})` : ''}`
    : `no response: ${r.error?.message ?? ''}`;
  const body = r.text ? `\n${truncate(r.text, 1500)}` : '';
  return { label, value: `${head}${body}`, exchangeId: r.exchangeId };
}

/**
 * When an exchange produced no response, decide who is to blame:
 * our tool / proxy -> `error` result; the agent (reset, silence) -> `fail`, critical when it looks like a crash.
 */
export function transportVerdict(r: HttpResult, what: string): Verdict {
  const e = r.error as TransportError;
  const evidence = [exchangeEvidence(r)];
  if (e.blame === 'tool' || e.source === 'abort') {
    return toolError(
      e.source === 'proxy' ? `The proxy could not reach the agent while ${what} (${e.code}): ${e.message}` : `Our tool failed while ${what}: ${e.message}`,
      evidence,
      e.source === 'proxy' ? e.code : undefined,
    );
  }
  if (e.blame === 'unknown' && r.neverReached) {
    return skip(
      `Nothing has answered at this address during the run (${e.message}), so the agent could not be reached while ${what}.`,
      'unreachable',
      evidence,
    );
  }
  if (e.blame === 'unknown') {
    return {
      status: 'fail',
      critical: true,
      message: `The agent stopped accepting connections while ${what} (${e.message}). It may have crashed.`,
      evidence,
    };
  }
  return {
    status: 'fail',
    critical: e.code === 'reset' || e.code === 'upstream_reset',
    // The console's judge words an agent's transport failure the same way (src/engine/judges/exchange.ts).
    message: transportFailureMessage(r, what),
    evidence,
  };
}

/**
 * A 401/403 says nothing about the check: without credentials the agent wants some, with credentials it refused
 * them (we cannot tell wrong credentials from a wrong agent). Skip, saying what is missing. The one rule for
 * "refused because of credentials", whatever the call was (pass the exchange: `o.http`, `probe.http`, a stream's result).
 */
export function refusedForCredentials(ctx: { readonly credentials: Credentials }, http: HttpResult): Verdict | undefined {
  const refused = refusalOf(http);
  if (!refused) return undefined;
  const { said } = refused;
  if (ctx.credentials.kind === 'none') {
    const challenge = http.headers.get('www-authenticate');
    return skip(
      `The agent answered ${said}: it requires credentials${challenge ? ` (WWW-Authenticate: ${challenge.slice(0, 120)})` : ''}. Enter them to run this check.`,
      'credentials',
      [exchangeEvidence(http)],
    );
  }
  return skip(`The agent refused the credentials given (${said}). Check they are valid and sent where the card says.`, 'credentials', [exchangeEvidence(http)]);
}

/**
 * The refusal for credentials an answer is, as the HTTP status it amounts to and in words: HTTP 401 or 403; over gRPC,
 * which answers at HTTP 200 with a status, UNAUTHENTICATED (16) or PERMISSION_DENIED (7), the gRPC examples v1.0.1
 * §3.3.2 gives of the same two errors.
 */
export function refusalOf(http: HttpResult): { status: 401 | 403; said: string } | undefined {
  const grpc = http.contentType === 'application/grpc' ? GRPC_REFUSALS[http.headers.get('grpc-status') ?? ''] : undefined;
  if (grpc) return { status: grpc[0], said: `gRPC ${grpc[1]}` };
  const s = http.status;
  return s === 401 || s === 403 ? { status: s, said: `HTTP ${s}` } : undefined;
}
const GRPC_REFUSALS: Readonly<Record<string, readonly [401 | 403, string]>> = { '16': [401, 'UNAUTHENTICATED'], '7': [403, 'PERMISSION_DENIED'] };
