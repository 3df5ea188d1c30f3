import { ALL_CHECKS } from '../checks';
import type { CheckDef } from '../checks/define';
import type { HttpContext } from '../http/client';
import type { CheckResult } from '../model/check';
import { checkContexts, runCheck } from './check-result';
import type { InspectedTarget } from '../target';
import { DEFAULT_TIMEOUT_MS, type Credentials } from './options';

/**
 * A run's card phase on its own: the card checks (those `wanted`, default all) one after the other, in catalogue
 * order, judged as a run judges them. For `discoverCard({ judge: true })` and `judgeCard` (src/engine/api.ts).
 */
export async function judgeTarget(
  t: InspectedTarget,
  o: { http: HttpContext; credentials: Credentials; signal?: AbortSignal; wanted?: (d: CheckDef) => boolean },
): Promise<CheckResult[]> {
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const makeCtx = checkContexts(t, { http: o.http, credentials: o.credentials, taskTimeoutMs: DEFAULT_TIMEOUT_MS, uuid, fixtures: new Map() });
  const env = { generation: t.detection.generation, raw: t.raw, signal: o.signal ?? o.http.signal, redactor: o.http.redactor, now: () => o.http.host.now() };
  const results: CheckResult[] = [];
  for (const def of ALL_CHECKS) {
    if (def.phase !== 'card' || (o.wanted && !o.wanted(def))) continue;
    results.push(await runCheck(def, () => makeCtx(def.id, def.phase), env));
  }
  return results;
}
