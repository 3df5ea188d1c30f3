import { startTransition, useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { checkDurations, exchangeLatencies, quantile, resultsPerCategory, streamTimings, type RunState } from '../../lib/engine';
import { CATEGORY_LABEL, fmtMs } from '../../lib/format';
import { operationName } from '../../lib/operation';
import { useRunSelector } from '../../lib/run-store';

const MAX_BARS = 24;
const MAX_TABLE_ROWS = 500;

/**
 * Re-computes chart data at most once a second while a run streams in, as a transition: React
 * renders the charts in slices between frames instead of one long task.
 */
function useThrottledRun(visible: boolean, intervalMs = 1000): RunState {
  const run = useRunSelector((s) => s.run);
  const [shown, setShown] = useState(run);
  useEffect(() => {
    // Off-screen charts are not redrawn (measuring SVG text is not free); they catch up when shown.
    if (!visible || shown === run) return undefined;
    const update = () => startTransition(() => setShown(run));
    if (run.status !== 'running') {
      update();
      return undefined;
    }
    const t = setTimeout(update, intervalMs);
    return () => clearTimeout(t);
  }, [run, shown, intervalMs, visible]);
  return useDeferredValue(shown);
}

/**
 * Whether the element is near the viewport now (`inView`) and whether it ever was (`seen`). Both come from the
 * observer's callback; without IntersectionObserver (tests, old browsers) everything counts as on screen.
 */
function useInView(ref: RefObject<Element | null>): { inView: boolean; seen: boolean } {
  const [state, setState] = useState(() => {
    const always = typeof IntersectionObserver === 'undefined';
    return { inView: always, seen: always };
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return undefined;
    const io = new IntersectionObserver(
      (entries) => {
        const inView = entries.some((e) => e.isIntersecting);
        setState((s) => (s.inView === inView ? s : { inView, seen: s.seen || inView }));
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return state;
}

function ChartCard({ title, table, children }: { title: string; table: ReactNode; children: ReactNode }) {
  const [asTable, setAsTable] = useState(false);
  return (
    <figure className="chart-card" aria-label={title}>
      <figcaption>
        <h3>{title}</h3>
        <button type="button" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? `Show ${title} as chart` : `Show ${title} as table`}
        </button>
      </figcaption>
      {asTable ? table : <div className="chart-box">{children}</div>}
    </figure>
  );
}

function DataTable({ label, head, rows }: { label: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <div className="table-scroll" tabIndex={0} role="group" aria-label={`${label} (scrolls)`}>
      <table aria-label={label}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_TABLE_ROWS).map((r, i) => (
            <tr key={i}>
              {r.map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {c}
                  </th>
                ) : (
                  <td key={j}>{c}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_TABLE_ROWS ? (
        <p>
          First {MAX_TABLE_ROWS} of {rows.length} rows.
        </p>
      ) : null}
    </div>
  );
}

const axis = { fill: 'var(--fg)', fontSize: 12 };
const BAR_ROW = 30;

/** Narrow screens get narrower label columns and smaller ticks, so the bars stay readable on a phone. */
const NARROW = '(max-width: 700px)';
const canMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';
function subscribeNarrow(onChange: () => void): () => void {
  if (!canMatchMedia()) return () => undefined;
  const m = window.matchMedia(NARROW);
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
}
/** Phone width, read from the media query as an external store (no copy in state). */
function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => canMatchMedia() && window.matchMedia(NARROW).matches,
    () => false,
  );
}

/**
 * Round ticks for a time axis: 0 and steps of 1, 2, 2.5 or 5 × 10ⁿ ms, at most about `count` of them, the last at or
 * beyond `max` (never "0, 237, 474 ms").
 */
export function msTicks(max: number, count: number): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / Math.max(1, count);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((x) => x >= raw) ?? 10 * pow;
  const ticks: number[] = [0];
  while (ticks.at(-1)! < max) ticks.push(Math.round((ticks.length * step + Number.EPSILON) * 1000) / 1000);
  return ticks;
}

/** A tick of a time axis, short: `0`, `250 ms`, `1.5 s`. */
export const tickMs = (v: number): string => (v === 0 ? '0' : v < 1000 ? `${v} ms` : `${Number((v / 1000).toFixed(2))} s`);

/** Room for the longest label (12 px text, about 7 px a character), within the width a narrow screen allows. */
export function labelWidthFor(labels: readonly string[], narrow: boolean): number {
  const longest = labels.reduce((n, l) => Math.max(n, l.length), 0);
  // The axis keeps a few pixels for its tick line and margin; recharts wraps a label that does not fit (on spaces).
  return Math.min(narrow ? 142 : 264, Math.max(48, Math.ceil(longest * 7.2) + 24));
}

export interface OperationStats {
  operation: string;
  count: number;
  p50: number;
  max: number;
  ttfbP50?: number;
}

/** Latency per operation (JSON-RPC method, or the HTTP+JSON operation; ids never split it), slowest median first. */
export function latencyByOperation(run: RunState): OperationStats[] {
  const g = run.targets.agent?.generation;
  const groups = new Map<string, { totals: number[]; ttfb: number[] }>();
  for (const l of exchangeLatencies(run)) {
    const x = run.exchanges[l.exchangeId];
    if (!x || l.totalMs === undefined) continue;
    const op = operationName(x.request, g);
    let group = groups.get(op);
    if (!group) groups.set(op, (group = { totals: [], ttfb: [] }));
    group.totals.push(l.totalMs);
    if (l.ttfbMs !== undefined) group.ttfb.push(l.ttfbMs);
  }
  return [...groups]
    .map(([operation, group]) => ({
      operation,
      count: group.totals.length,
      p50: Math.round(quantile(group.totals, 0.5) ?? 0),
      max: Math.round(Math.max(...group.totals)),
      ttfbP50: group.ttfb.length ? Math.round(quantile(group.ttfb, 0.5) ?? 0) : undefined,
    }))
    .sort((a, b) => b.p50 - a.p50);
}

export interface FirstEventStats {
  operation: string;
  streams: number;
  p50: number;
  max: number;
}

/** Time to the first SSE event, per streaming operation (message/stream, tasks/resubscribe, …). */
export function firstEventByOperation(run: RunState): FirstEventStats[] {
  const g = run.targets.agent?.generation;
  const groups = new Map<string, number[]>();
  for (const s of streamTimings(run)) {
    const x = run.exchanges[s.exchangeId];
    if (!x || s.firstEventMs === undefined) continue;
    const op = operationName(x.request, g);
    const arr = groups.get(op) ?? [];
    arr.push(s.firstEventMs);
    groups.set(op, arr);
  }
  return [...groups].map(([operation, v]) => ({ operation, streams: v.length, p50: Math.round(quantile(v, 0.5) ?? 0), max: Math.round(Math.max(...v)) }));
}

/** Charts of the run (recharts; this module is loaded lazily). Each chart has a table view. */
export default function ChartsPanel() {
  const ref = useRef<HTMLElement>(null);
  // recharts is mounted only once the section has been on screen (`seen`): during a run it usually is not.
  const { inView, seen } = useInView(ref);
  const run = useThrottledRun(inView);
  const narrow = useNarrow();
  const data = useMemo(() => {
    const streams = streamTimings(run);
    const lat = exchangeLatencies(run);
    return {
      categories: resultsPerCategory(run).map((c) => ({ ...c, label: CATEGORY_LABEL[c.category] })),
      durations: checkDurations(run),
      operations: latencyByOperation(run),
      firstEvents: firstEventByOperation(run),
      streams,
      exchanges: lat.length,
      p50: quantile(
        lat.map((l) => l.totalMs ?? 0),
        0.5,
      ),
      p95: quantile(
        lat.map((l) => l.totalMs ?? 0),
        0.95,
      ),
    };
  }, [run]);
  // From the live store, not the throttled copy: a hidden section never comes into view to catch up.
  const empty = useRunSelector((s) => !s.run.checkOrder.length && !s.run.exchangeOrder.length);
  const opOf = (exchangeId: string) => {
    const x = run.exchanges[exchangeId];
    return x ? operationName(x.request, run.targets.agent?.generation) : exchangeId;
  };
  const shortLabel = (v: string) => {
    const max = narrow ? 16 : 33;
    if (v.length <= max) return v;
    // HTTP+JSON operations are named by the end of the path (…/message:send): keep the end, not the start.
    const m = /^([A-Z]+) /.exec(v);
    const method = m?.[1];
    return method ? `${method} …${v.slice(-(max - method.length - 2))}` : `${v.slice(0, max - 1)}…`;
  };
  // Round ticks, fewer on a phone; label columns as wide as the longest (shortened) label, so none is cut.
  const tickCount = narrow ? 3 : 5;
  const ops = data.operations.slice(0, MAX_BARS);
  const fes = data.firstEvents.slice(0, MAX_BARS);
  const durs = data.durations.slice(0, 12);
  const opTicks = msTicks(Math.max(0, ...ops.map((o) => o.max)), tickCount);
  const feTicks = msTicks(Math.max(0, ...fes.map((o) => o.max)), tickCount);
  const durTicks = msTicks(Math.max(0, ...durs.map((d) => d.ms)), tickCount);
  const opLabels = labelWidthFor(
    ops.map((o) => shortLabel(o.operation)),
    narrow,
  );
  const feLabels = labelWidthFor(
    fes.map((o) => shortLabel(o.operation)),
    narrow,
  );
  const durLabels = labelWidthFor(
    durs.map((d) => shortLabel(d.id)),
    narrow,
  );
  return (
    <section ref={ref} className="charts" aria-labelledby="charts-heading" hidden={empty}>
      <h2 id="charts-heading">Charts</h2>
      {seen && !run.checkOrder.length && !run.exchangeOrder.length ? <p className="chart-note">Drawing charts…</p> : null}
      {seen && (run.checkOrder.length || run.exchangeOrder.length) ? (
        <div className="chart-grid">
          <ChartCard
            title="Results per category"
            table={
              <DataTable
                label="Results per category"
                head={['Category', 'Pass', 'Fail', 'Advisory', 'Skipped', 'Tool error']}
                rows={data.categories.map((c) => [c.label, c.pass, c.fail, c.advisory, c.skip, c.error])}
              />
            }
          >
            <ResponsiveContainer width="100%" height={data.categories.length * 36 + 70}>
              <BarChart data={data.categories} layout="vertical" margin={{ left: 4, right: 28 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
                <XAxis type="number" allowDecimals={false} tick={axis} />
                <YAxis type="category" dataKey="label" width={narrow ? 96 : 120} tick={axis} interval={0} />
                <Tooltip />
                <Legend />
                <Bar dataKey="pass" name="pass" stackId="a" fill="var(--ok)" isAnimationActive={false} />
                <Bar dataKey="fail" name="fail" stackId="a" fill="var(--bad)" isAnimationActive={false} />
                <Bar dataKey="advisory" name="advisory" stackId="a" fill="var(--accent)" isAnimationActive={false} />
                <Bar dataKey="skip" name="skipped" stackId="a" fill="var(--skip)" isAnimationActive={false} />
                <Bar dataKey="error" name="tool error" stackId="a" fill="var(--tool)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
          <ChartCard
            title="Latency per operation"
            table={
              <DataTable
                label="Latency per operation"
                head={['Operation', 'Calls', 'Median', 'Slowest', 'Median time to headers']}
                rows={data.operations.map((o) => [o.operation, o.count, fmtMs(o.p50), fmtMs(o.max), fmtMs(o.ttfbP50)])}
              />
            }
          >
            <p className="chart-note">
              all {data.exchanges} exchanges: p50 {fmtMs(data.p50)} · p95 {fmtMs(data.p95)}
              {data.operations.length > MAX_BARS ? ` · slowest ${MAX_BARS} of ${data.operations.length} operations drawn` : ''}
            </p>
            <ResponsiveContainer width="100%" height={Math.min(MAX_BARS, data.operations.length) * BAR_ROW + 70}>
              <BarChart data={ops} layout="vertical" margin={{ left: 4, right: 28 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
                <XAxis type="number" tick={axis} interval={0} ticks={opTicks} domain={[0, opTicks.at(-1)!]} tickFormatter={tickMs} />
                <YAxis type="category" dataKey="operation" width={opLabels} tick={axis} interval={0} tickFormatter={shortLabel} />
                <Tooltip />
                <Legend />
                <Bar dataKey="p50" name="median (ms)" fill="var(--accent)" isAnimationActive={false} />
                <Bar dataKey="max" name="slowest (ms)" fill="var(--accent-2)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
          <ChartCard
            title="Time to first SSE event"
            table={
              <DataTable
                label="Time to first SSE event"
                head={['Operation', 'Stream', 'Events', 'First event', 'Median gap', 'Largest gap']}
                rows={data.streams.map((s) => [
                  opOf(s.exchangeId),
                  s.exchangeId,
                  s.events,
                  fmtMs(s.firstEventMs),
                  fmtMs(quantile(s.gapsMs, 0.5)),
                  fmtMs(s.maxGapMs),
                ])}
              />
            }
          >
            {data.firstEvents.length ? (
              <ResponsiveContainer width="100%" height={Math.min(MAX_BARS, data.firstEvents.length) * BAR_ROW + 70}>
                <BarChart data={fes} layout="vertical" margin={{ left: 4, right: 28 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
                  <XAxis type="number" tick={axis} interval={0} ticks={feTicks} domain={[0, feTicks.at(-1)!]} tickFormatter={tickMs} />
                  <YAxis type="category" dataKey="operation" width={feLabels} tick={axis} interval={0} tickFormatter={shortLabel} />
                  <Tooltip />
                  <Legend />
                  <Bar dataKey="p50" name="median (ms)" fill="var(--accent)" isAnimationActive={false} />
                  <Bar dataKey="max" name="slowest (ms)" fill="var(--accent-2)" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            ) : (
              <p>No SSE streams in this run.</p>
            )}
          </ChartCard>
          <ChartCard
            title="Slowest checks"
            table={<DataTable label="Check durations" head={['Check', 'Status', 'Duration']} rows={data.durations.map((d) => [d.id, d.status, fmtMs(d.ms)])} />}
          >
            <ResponsiveContainer width="100%" height={Math.min(12, data.durations.length) * BAR_ROW + 50}>
              <BarChart data={durs} layout="vertical" margin={{ left: 4, right: 28 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
                <XAxis type="number" tick={axis} interval={0} ticks={durTicks} domain={[0, durTicks.at(-1)!]} tickFormatter={tickMs} />
                <YAxis type="category" dataKey="id" width={durLabels} tick={axis} interval={0} tickFormatter={shortLabel} />
                <Tooltip />
                <Bar dataKey="ms" name="duration (ms)" fill="var(--accent)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </ChartCard>
        </div>
      ) : null}
      {!seen ? <p className="chart-note">Charts are drawn when this section is on screen.</p> : null}
    </section>
  );
}
