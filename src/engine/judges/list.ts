/**
 * A ListTasks page (v1.0.1 §3.1.4), judged for lifecycle.list: the run's check and the console's list call both
 * judge a page with it.
 */
import type { Generation } from '../model/check';
import { isRecord } from '../util/json';
import { defined, finding, type Finding } from './finding';

/** One ListTasks page judged against v1.0.1 §3.1.4 and the proto (docs/spec-review/lifecycle.md X5: MUST findings vs advisories). */
export function judgeListPage(v: unknown, contextId: string | undefined): { hard: string[]; weak: string[]; ids?: string[]; nextPageToken?: string } {
  const hard: string[] = [];
  const weak: string[] = [];
  if (!isRecord(v)) return { hard: [`the result is not an object (${JSON.stringify(v)?.slice(0, 60)})`], weak };
  let tasks: unknown[] = [];
  if (v.tasks === undefined) weak.push('"tasks" is absent (ProtoJSON omits an empty list; REQUIRED in the proto)');
  else if (!Array.isArray(v.tasks)) hard.push('"tasks" is not a list');
  else tasks = v.tasks;
  if (v.nextPageToken === undefined) hard.push('"nextPageToken" is missing (§3.1.4: MUST always be present, "" on the last page)');
  else if (typeof v.nextPageToken !== 'string') hard.push('"nextPageToken" is not a string');
  for (const k of ['pageSize', 'totalSize'] as const) {
    if (v[k] === undefined)
      (tasks.length ? hard : weak).push(`"${k}" is absent${tasks.length ? ' (REQUIRED in the proto)' : ' (ProtoJSON omits a zero; REQUIRED in the proto)'}`);
    else if (typeof v[k] !== 'number' && !(typeof v[k] === 'string' && /^\d+$/.test(String(v[k])))) hard.push(`"${k}" is not a number`);
  }
  const ids: string[] = [];
  let prev: number | undefined;
  let unordered = false;
  const withArtifacts: string[] = [];
  const foreign: string[] = [];
  for (const t of tasks.slice(0, 200)) {
    if (!isRecord(t)) {
      hard.push('a listed task is not an object');
      continue;
    }
    const id = typeof t.id === 'string' ? t.id : '?';
    ids.push(id);
    if (t.artifacts !== undefined) withArtifacts.push(id);
    if (contextId && typeof t.contextId === 'string' && t.contextId !== contextId) foreign.push(`${id} (context ${t.contextId})`);
    const ts = isRecord(t.status) && typeof t.status.timestamp === 'string' ? Date.parse(t.status.timestamp) : NaN;
    if (!Number.isNaN(ts)) {
      if (prev !== undefined && ts > prev) unordered = true;
      prev = ts;
    }
  }
  if (withArtifacts.length)
    hard.push(`task(s) ${withArtifacts.slice(0, 3).join(', ')} carry "artifacts" although includeArtifacts was not set (§3.1.4: MUST be omitted entirely)`);
  if (unordered) hard.push('the tasks are not sorted by status timestamp, newest first (§3.1.4 MUST)');
  if (foreign.length) hard.push(`the contextId filter returned tasks of other contexts: ${foreign.slice(0, 3).join(', ')}`);
  return { hard, weak, ids, nextPageToken: typeof v.nextPageToken === 'string' && v.nextPageToken ? v.nextPageToken : undefined };
}

/**
 * A ListTasks answer as findings of lifecycle.list: its JSON-RPC envelope (JSON-RPC 2.0 §5: a success echoes the
 * request id) and the page (judgeListPage): MUST findings at the check's strength, the others advisory.
 */
export function listPageFindings(
  g: Generation,
  v: unknown,
  contextId: string | undefined,
  exchangeId?: string,
  envelopeProblems: readonly string[] = [],
): Finding[] {
  const page = judgeListPage(v, contextId);
  return defined([
    ...envelopeProblems.map((p) => finding(g, 'lifecycle.list', 'envelope', p, { exchangeId })),
    ...page.hard.map((p) => finding(g, 'lifecycle.list', 'answer', p, { exchangeId })),
    ...page.weak.map((p) => finding(g, 'lifecycle.list', 'answer', p, { exchangeId, level: 'advisory' })),
  ]);
}
