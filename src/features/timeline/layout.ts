import type { RunState } from '../../lib/engine';
import { deliveryLabel, PUSH_INBOX_LANE } from './delivery';
import { operationOf } from './wire';

/** Pure timeline model: one lane per test task, its items on a shared time axis. */
export type TimelineRow =
  | { kind: 'lane'; key: string; lane: string; items: number; collapsed: boolean; checkId?: string }
  | { kind: 'exchange'; key: string; lane: string; start: number; end?: number; label: string; detail: string; tone: Tone; checkId?: string }
  | { kind: 'sse'; key: string; lane: string; start: number; exchangeId: string; label: string; detail: string; tone: Tone; checkId?: string }
  | { kind: 'state'; key: string; lane: string; start: number; label: string; detail: string; tone: Tone; checkId?: string };

export type Tone = 'ok' | 'bad' | 'tool' | 'pending' | 'info';
export type ItemKind = 'exchange' | 'sse' | 'state';

/** What the timeline shows: one check (or all), some kinds of items, items of one outcome. */
export interface TimelineFilter {
  check: string;
  kinds: ReadonlySet<ItemKind>;
  /** `bad`: 4xx/5xx and agent-side transport failures; `tool`: our proxy or tool failed; `ok`: the rest that finished. */
  status: 'all' | 'ok' | 'bad' | 'tool' | 'pending';
}

const ALL_KINDS: ReadonlySet<ItemKind> = new Set(['exchange', 'sse', 'state']);
export const NO_TIMELINE_FILTER: TimelineFilter = { check: 'all', kinds: ALL_KINDS, status: 'all' };

const isFiltering = (f: TimelineFilter) => f.check !== 'all' || f.kinds.size < 3 || f.status !== 'all';

function keep(item: Item, f: TimelineFilter): boolean {
  if (!f.kinds.has(item.kind)) return false;
  if (f.check !== 'all' && item.checkId !== f.check) return false;
  if (f.status === 'all') return true;
  // SSE events and task states take the outcome of what carried them: ok unless marked bad.
  const tone = item.tone === 'info' ? 'ok' : item.tone;
  return tone === f.status;
}

export interface TimelineModel {
  rows: TimelineRow[];
  t0: number;
  t1: number;
  itemCount: number;
}

type Item = Exclude<TimelineRow, { kind: 'lane' }>;

/**
 * Rows for the virtualized list: a header per lane (in order of first appearance), then that lane's
 * exchanges, SSE events and task-state transitions sorted by time. Linear in the number of items
 * plus one sort per lane.
 */
export function buildTimeline(s: RunState, collapsed: ReadonlySet<string> = new Set(), filter: TimelineFilter = NO_TIMELINE_FILTER): TimelineModel {
  const byLane = new Map<string, Item[]>();
  const lanes: string[] = [];
  const push = (lane: string, item: Item) => {
    let arr = byLane.get(lane);
    if (!arr) {
      byLane.set(lane, (arr = []));
      lanes.push(lane);
    }
    arr.push(item);
  };
  // Keep the engine's lane order; lanes first seen here (none, normally) are appended.
  for (const l of s.lanes) {
    byLane.set(l, []);
    lanes.push(l);
  }
  // Task states carry only a lane: a lane belongs to the check whose exchanges it holds.
  const laneCheck = new Map<string, string>();
  let t0 = s.startedAt ?? Infinity;
  let t1 = s.finishedAt ?? -Infinity;
  for (const id of s.exchangeOrder) {
    const x = s.exchanges[id];
    if (!x) continue;
    if (x.checkId && !laneCheck.has(x.lane)) laneCheck.set(x.lane, x.checkId);
    const start = x.timings.startedAt;
    const end = x.timings.endedAt;
    const status = x.error ? `${x.error.source} ${x.error.code}` : x.response ? String(x.response.status) : 'pending';
    const tone: Tone = x.error
      ? x.error.blame === 'tool' || x.error.source === 'proxy'
        ? 'tool'
        : 'bad'
      : !x.response
        ? 'pending'
        : x.response.status >= 400
          ? 'bad'
          : 'ok';
    push(x.lane, {
      kind: 'exchange',
      key: id,
      lane: x.lane,
      start,
      end,
      label: x.lane === PUSH_INBOX_LANE ? deliveryLabel(x.request.body) : operationOf(x.request),
      detail: `${status}${end !== undefined ? `, ${Math.round(end - start)} ms` : ''}${x.sseCount ? `, ${x.sseCount} SSE events` : ''}`,
      tone,
      checkId: x.checkId,
    });
    if (start < t0) t0 = start;
    if ((end ?? start) > t1) t1 = end ?? start;
  }
  s.sse.forEach((e, i) => {
    push(e.lane, {
      kind: 'sse',
      key: `sse:${i}`,
      lane: e.lane,
      start: e.at,
      exchangeId: e.exchangeId,
      label: `SSE #${e.seq}${e.event ? ` ${e.event}` : ''}`,
      detail: e.summary ?? e.data.slice(0, 80),
      tone: e.event === 'error' ? 'bad' : 'info',
      checkId: s.exchanges[e.exchangeId]?.checkId,
    });
    if (e.at > t1) t1 = e.at;
  });
  s.taskStates.forEach((e, i) => {
    push(e.lane, {
      kind: 'state',
      key: `state:${i}`,
      lane: e.lane,
      start: e.at,
      label: `Task ${e.state}`,
      detail: `${e.taskId.slice(0, 40)} via ${e.source}${e.rawState !== e.state ? ` (wire: ${e.rawState.slice(0, 40)})` : ''}`,
      tone: e.state === 'failed' || e.state === 'rejected' ? 'bad' : e.state === 'completed' ? 'ok' : 'info',
      checkId: laneCheck.get(e.lane),
    });
    if (e.at > t1) t1 = e.at;
  });
  const rows: TimelineRow[] = [];
  let itemCount = 0;
  const filtering = isFiltering(filter);
  for (const lane of lanes) {
    const all = byLane.get(lane) ?? [];
    const items = filtering ? all.filter((it) => keep(it, filter)) : all;
    if (filtering && !items.length) continue;
    itemCount += items.length;
    const isCollapsed = collapsed.has(lane);
    rows.push({ kind: 'lane', key: `lane:${lane}`, lane, items: items.length, collapsed: isCollapsed, checkId: laneCheck.get(lane) });
    if (isCollapsed) continue;
    // Stable sort: items with equal times keep arrival order.
    items.sort((a, b) => a.start - b.start);
    for (const it of items) rows.push(it);
  }
  if (!Number.isFinite(t0)) t0 = 0;
  if (!Number.isFinite(t1) || t1 <= t0) t1 = t0 + 1;
  return { rows, t0, t1, itemCount };
}

/** Position on the shared time axis, 0..100 (%). */
export const pct = (t: number, t0: number, t1: number) => Math.min(100, Math.max(0, ((t - t0) / (t1 - t0)) * 100));
