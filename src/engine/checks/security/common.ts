/** What the security review's checks share: how a finding becomes an informational result, and where the agent lives. */
import type { Evidence } from '../../model/check';
import type { CheckContext } from '../context';
import { defineCheck, type CheckDeclaration, type CheckDef, type Precondition, type Verdict } from '../define';
import { addressKind, type AddressKind } from './detect';

/** Why a security finding is shown but never counted (the result's advisoryReason). */
const INFORMATIONAL = 'Security review: informational. It points at a risk for the agent or its clients; it never changes the conformance level.';

/** A finding of the security review: reported as an informational advisory with its evidence and fix. */
export const finding = (message: string, evidence: Evidence[], recommendation?: string): Verdict => ({
  status: 'fail',
  advisory: INFORMATIONAL,
  message,
  evidence,
  recommendation,
});

/** A security-review check: category `security`, tier `advisory` (report/level.ts also leaves the category out). */
export function defineSecurityCheck<R extends Precondition = never>(
  def: Omit<CheckDeclaration<R>, 'category' | 'tier' | 'level'> & { level?: CheckDeclaration<R>['level'] },
): CheckDef {
  return defineCheck<R>({ level: 'MAY', ...def, category: 'security', tier: 'advisory' });
}

/**
 * Where the agent under test lives, from the URL its card was read at (else the URL given): a local agent (loopback
 * or a private network) is a development or test set-up, so private URLs and plain HTTP in its card are expected.
 */
export function agentAddress(ctx: Pick<CheckContext, 'discovery'>): { host: string; kind: AddressKind } | undefined {
  const u = ctx.discovery.cardUrl ?? ctx.discovery.inputUrl;
  try {
    const { hostname } = new URL(u);
    return { host: hostname, kind: addressKind(hostname) };
  } catch {
    return undefined;
  }
}

export const isLocalKind = (k: AddressKind | undefined) => k === 'loopback' || k === 'private' || k === 'unspecified';
