/**
 * lifecycle.list: ListTasks (v1.0) lists the tasks of a context, newest first, with a nextPageToken.
 */
import type { Evidence } from '../../model/check';
import type { CallOutcome } from '../../protocol/dialect';
import { ERROR_REASON, isA2AError } from '../../protocol/errors';
import { defineCheck, exchangeEvidence, fail } from '../define';
import { judgeListPage, listPageFindings } from '../../judges/list';
import { brokenCallVerdict } from '../setups/outcomes';
import { graded, listTasks, type ListParams } from './shared';

/** Method not found: MethodNotFound, or REST 404/405/501 (a route that does not exist). */
function notImplemented(o: CallOutcome): boolean {
  if (o.kind !== 'error') return false;
  return (
    isA2AError(o, 'MethodNotFound') ||
    ((o.http.status === 404 || o.http.status === 405 || o.http.status === 501) && o.error.code === undefined && o.error.reason !== ERROR_REASON.TaskNotFound)
  );
}

export const lifecycleList = defineCheck({
  id: 'lifecycle.list',
  title: 'ListTasks lists the tasks of a context, newest first, with a nextPageToken',
  category: 'lifecycle',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §3.1.4 List Tasks' },
  recommendation:
    'Implement ListTasks: filter by contextId, return visible tasks newest first (by status timestamp), always include nextPageToken ("" on the last page), and omit artifacts unless includeArtifacts is set.',
  requires: ['task-runs'],
  run: async (ctx) => {
    const runs = ctx.taskRuns;
    const lane = ctx.lane('list');
    const ours = runs.map((r) => r.observations[0].task).find((t) => t.id && t.contextId) ?? runs[0].observations[0].task;
    const hard: string[] = [];
    const weak: string[] = [];
    const evidence: Evidence[] = [];
    const calls: { params: ListParams; label: string }[] = ours.contextId
      ? [{ params: { contextId: ours.contextId, pageSize: 10 }, label: `contextId ${ours.contextId}` }]
      : [];
    calls.push({ params: { pageSize: 100 }, label: 'unfiltered' });
    let pages = 0;
    for (const call of calls) {
      let token: string | undefined;
      for (let page = 1; page <= (call.params.contextId ? 1 : 3); page++) {
        const res = await listTasks(ctx, lane, { ...call.params, ...(token && { pageToken: token }) });
        evidence.push(exchangeEvidence(res.http, `ListTasks ${call.label}${page > 1 ? ` page ${page}` : ''}`));
        if (res.kind !== 'ok') {
          if (pages === 0 && notImplemented(res)) {
            return {
              ...fail('ListTasks is not implemented (method not found).', evidence),
              advisory:
                'Only the lowercase "must support" of v1.0.1 §3.1 asks for ListTasks, a sentence that also lists capability-gated operations; the a2a-tck has no requirement to implement it either.',
            };
          }
          return brokenCallVerdict(ctx, res, `ListTasks (${call.label})`);
        }
        pages++;
        // The envelope (JSON-RPC 2.0 §5: a success must echo the request id) and the page: the console's judge too.
        const found = listPageFindings(ctx.generation, res.value, call.params.contextId, res.http.exchangeId, res.envelopeProblems);
        hard.push(...found.filter((f) => f.level !== 'advisory').map((f) => `${call.label}: ${f.message}`));
        weak.push(...found.filter((f) => f.level === 'advisory').map((f) => `${call.label}: ${f.message}`));
        const p = judgeListPage(res.value, call.params.contextId);
        if (call.params.contextId && ours.id && p.ids && !p.ids.includes(ours.id) && !p.nextPageToken) {
          hard.push(`${call.label}: our task ${ours.id}, created in that context with the same credentials, is not listed`);
        }
        token = p.nextPageToken;
        if (!token) break;
      }
    }
    return graded(
      hard,
      weak,
      evidence,
      `ListTasks answered ${pages} page(s): filtered by context and unfiltered, newest first, with nextPageToken.`,
      'Stock ProtoJSON omits empty lists and zero numbers, which the REQUIRED marking of tasks, pageSize and totalSize contradicts (§5.7 also says required arrays must not be empty).',
    );
  },
});
