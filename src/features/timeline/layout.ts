import type { RunState } from '../../lib/engine';

/** Pure timeline model: one lane per test task, its items on a shared time axis. */
export type TimelineRow =
  | { kind: 'lane'; key: string; lane: string; items: number; collapsed: boolean }
  | { kind: 'exchange'; key: string; lane: string; start: number; end?: number; label: string; detail: string; tone: Tone }
  | { kind: 'sse'; key: string; lane: string; start: number; exchangeId: string; label: string; detail: string; tone: Tone }
  | { kind: 'state'; key: string; lane: string; start: number; label: string; detail: string; tone: Tone };

export type Tone = 'ok' | 'bad' | 'tool' | 'pending' | 'info';

export interface TimelineModel {
  rows: TimelineRow[];
  t0: number;
  t1: number;
  itemCount: number;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + (u.search ? '?…' : '');
  } catch {
    return url.slice(0, 80);
  }
}

function rpcMethod(body: string | undefined): string | undefined {
  if (!body || body.length > 100_000) return undefined;
  const m = /"method"\s*:\s*"([^"]{1,80})"/.exec(body);
  return m?.[1];
}

type Item = Exclude<TimelineRow, { kind: 'lane' }>;

/**
 * Rows for the virtualized list: a header per lane (in order of first appearance), then that lane's
 * exchanges, SSE events and task-state transitions sorted by time. Linear in the number of items
 * plus one sort per lane.
 */
export function buildTimeline(s: RunState, collapsed: ReadonlySet<string> = new Set()): TimelineModel {
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
  let t0 = s.startedAt ?? Infinity;
  let t1 = s.finishedAt ?? -Infinity;
  for (const id of s.exchangeOrder) {
    const x = s.exchanges[id];
    if (!x) continue;
    const start = x.timings.startedAt;
    const end = x.timings.endedAt;
    const method = rpcMethod(x.request.body);
    const status = x.error ? `${x.error.source} ${x.error.code}` : x.response ? String(x.response.status) : 'pending';
    const tone: Tone = x.error ? (x.error.blame === 'tool' || x.error.source === 'proxy' ? 'tool' : 'bad') : !x.response ? 'pending' : x.response.status >= 400 ? 'bad' : 'ok';
    push(x.lane, {
      kind: 'exchange',
      key: id,
      lane: x.lane,
      start,
      end,
      label: `${x.request.method} ${pathOf(x.request.url)}${method ? ` ${method}` : ''}`,
      detail: `${status}${end !== undefined ? `, ${Math.round(end - start)} ms` : ''}${x.sseCount ? `, ${x.sseCount} SSE events` : ''}`,
      tone,
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
    });
    if (e.at > t1) t1 = e.at;
  });
  const rows: TimelineRow[] = [];
  let itemCount = 0;
  for (const lane of lanes) {
    const items = byLane.get(lane) ?? [];
    itemCount += items.length;
    const isCollapsed = collapsed.has(lane);
    rows.push({ kind: 'lane', key: `lane:${lane}`, lane, items: items.length, collapsed: isCollapsed });
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
