import { CATEGORIES, type Category } from '../model/check';
import type { RunState } from '../state/run-state';
import { resultsOf } from '../state/run-state';

/** Chart data, computed once here and drawn by the dashboard (recharts) and the HTML export (static SVG). */

export interface CategoryCounts {
  category: Category;
  pass: number;
  fail: number;
  advisory: number;
  skip: number;
  error: number;
}

export function resultsPerCategory(s: RunState): CategoryCounts[] {
  const rows = new Map<Category, CategoryCounts>(CATEGORIES.map((c) => [c, { category: c, pass: 0, fail: 0, advisory: 0, skip: 0, error: 0 }]));
  for (const r of resultsOf(s)) rows.get(r.category)![r.status]++;
  return [...rows.values()];
}

export interface DurationPoint {
  id: string;
  title: string;
  category: Category;
  ms: number;
  status: string;
}

/** Check durations, slowest first. */
export function checkDurations(s: RunState): DurationPoint[] {
  return resultsOf(s)
    .map((r) => ({ id: r.id, title: r.test, category: r.category, ms: r.duration_ms, status: r.status }))
    .sort((a, b) => b.ms - a.ms);
}

export interface LatencyPoint {
  exchangeId: string;
  label: string;
  lane: string;
  /** Request start to response headers. */
  ttfbMs?: number;
  /** Request start to end of body / stream. */
  totalMs?: number;
  status?: number;
}

/** Latency of each finished HTTP exchange, in request order. */
export function exchangeLatencies(s: RunState): LatencyPoint[] {
  const out: LatencyPoint[] = [];
  for (const id of s.exchangeOrder) {
    const x = s.exchanges[id];
    if (!x?.timings.endedAt) continue;
    let path = x.request.url;
    try {
      const u = new URL(x.request.url);
      path = u.pathname;
    } catch {
      /* keep raw */
    }
    out.push({
      exchangeId: id,
      label: `${x.request.method} ${path}`,
      lane: x.lane,
      ttfbMs: x.timings.headersAt !== undefined ? x.timings.headersAt - x.timings.startedAt : undefined,
      totalMs: x.timings.endedAt - x.timings.startedAt,
      status: x.response?.status,
    });
  }
  return out;
}

export interface StreamTiming {
  exchangeId: string;
  lane: string;
  firstEventMs?: number;
  events: number;
  gapsMs: number[];
  maxGapMs?: number;
}

/** Time to first SSE event and gaps between events, per stream. */
export function streamTimings(s: RunState): StreamTiming[] {
  const byExchange = new Map<string, number[]>();
  for (const e of s.sse) {
    let arr = byExchange.get(e.exchangeId);
    if (!arr) byExchange.set(e.exchangeId, (arr = []));
    arr.push(e.at);
  }
  const out: StreamTiming[] = [];
  for (const [exchangeId, ats] of byExchange) {
    const x = s.exchanges[exchangeId];
    const gaps = ats.slice(1).map((t, i) => t - ats[i]!);
    out.push({
      exchangeId,
      lane: x?.lane ?? '',
      firstEventMs: x && ats.length ? ats[0]! - x.timings.startedAt : undefined,
      events: ats.length,
      gapsMs: gaps,
      maxGapMs: gaps.length ? gaps.reduce((a, b) => (b > a ? b : a)) : undefined,
    });
  }
  return out;
}

export { quantile } from '../util/stats';
