import { startTransition, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { checkDurations, exchangeLatencies, quantile, resultsPerCategory, streamTimings, type RunState } from '../../lib/engine';
import { fmtMs } from '../../lib/format';
import { useRunSelector } from '../../lib/run-store';

const MAX_BARS = 60;
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

function useInView(ref: RefObject<Element | null>): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setInView(true);
      return undefined;
    }
    const io = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return inView;
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
    <div className="table-scroll">
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
              {r.map((c, j) => (j === 0 ? <th key={j} scope="row">{c}</th> : <td key={j}>{c}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_TABLE_ROWS ? <p>First {MAX_TABLE_ROWS} of {rows.length} rows.</p> : null}
    </div>
  );
}

const axis = { stroke: 'var(--muted)', fontSize: 12 };

/** Charts of the run (recharts; this module is loaded lazily). Each chart has a table view. */
export default function ChartsPanel() {
  const ref = useRef<HTMLElement>(null);
  const inView = useInView(ref);
  const run = useThrottledRun(inView);
  // recharts is mounted only once the section has been on screen: during a run it usually is not.
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (inView) setSeen(true);
  }, [inView]);
  const data = useMemo(() => {
    const streams = streamTimings(run);
    const lat = exchangeLatencies(run);
    return {
      categories: resultsPerCategory(run),
      durations: checkDurations(run),
      latencies: lat,
      streams,
      p50: quantile(lat.map((l) => l.totalMs ?? 0), 0.5),
      p95: quantile(lat.map((l) => l.totalMs ?? 0), 0.95),
    };
  }, [run]);
  // From the live store, not the throttled copy: a hidden section never comes into view to catch up.
  const empty = useRunSelector((s) => !s.run.checkOrder.length && !s.run.exchangeOrder.length);
  return (
    <section ref={ref} className="charts" aria-labelledby="charts-heading" hidden={empty}>
      <h2 id="charts-heading">Charts</h2>
      {seen && !run.checkOrder.length && !run.exchangeOrder.length ? <p className="chart-note">Drawing charts…</p> : null}
      {seen && (run.checkOrder.length || run.exchangeOrder.length) ? <div className="chart-grid">
        <ChartCard
          title="Results per category"
          table={
            <DataTable
              label="Results per category"
              head={['Category', 'Pass', 'Fail', 'Skipped', 'Tool error']}
              rows={data.categories.map((c) => [c.category, c.pass, c.fail, c.skip, c.error])}
            />
          }
        >
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={data.categories}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
              <XAxis dataKey="category" tick={axis} />
              <YAxis allowDecimals={false} tick={axis} />
              <Tooltip />
              <Legend />
              <Bar dataKey="pass" name="pass" stackId="a" fill="var(--ok)" isAnimationActive={false} />
              <Bar dataKey="fail" name="fail" stackId="a" fill="var(--bad)" isAnimationActive={false} />
              <Bar dataKey="skip" name="skipped" stackId="a" fill="var(--skip)" isAnimationActive={false} />
              <Bar dataKey="error" name="tool error" stackId="a" fill="var(--tool)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard
          title="Check durations"
          table={<DataTable label="Check durations" head={['Check', 'Status', 'Duration']} rows={data.durations.map((d) => [d.id, d.status, fmtMs(d.ms)])} />}
        >
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={data.durations.slice(0, MAX_BARS)} layout="vertical">
              <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
              <XAxis type="number" unit=" ms" tick={axis} />
              <YAxis type="category" dataKey="id" width={170} tick={axis} />
              <Tooltip />
              <Bar dataKey="ms" name="duration (ms)" fill="var(--accent)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard
          title="Exchange latency"
          table={
            <DataTable
              label="Exchange latency"
              head={['Exchange', 'Request', 'Status', 'Time to headers', 'Total']}
              rows={data.latencies.map((l) => [l.exchangeId, l.label, l.status ?? '–', fmtMs(l.ttfbMs), fmtMs(l.totalMs)])}
            />
          }
        >
          <p className="chart-note">
            p50 {fmtMs(data.p50)} · p95 {fmtMs(data.p95)} · {data.latencies.length} exchanges
            {data.latencies.length > MAX_BARS ? ` (last ${MAX_BARS} drawn)` : ''}
          </p>
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={data.latencies.slice(-MAX_BARS)}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
              <XAxis dataKey="exchangeId" tick={axis} />
              <YAxis unit=" ms" tick={axis} />
              <Tooltip />
              <Legend />
              <Bar dataKey="ttfbMs" name="time to headers (ms)" fill="var(--accent)" isAnimationActive={false} />
              <Bar dataKey="totalMs" name="total (ms)" fill="var(--accent-2)" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard
          title="SSE timing"
          table={
            <DataTable
              label="SSE timing"
              head={['Stream', 'Lane', 'Events', 'First event', 'Median gap', 'Max gap']}
              rows={data.streams.map((s) => [s.exchangeId, s.lane, s.events, fmtMs(s.firstEventMs), fmtMs(quantile(s.gapsMs, 0.5)), fmtMs(s.maxGapMs)])}
            />
          }
        >
          {data.streams.length ? (
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={data.streams.slice(0, MAX_BARS)}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
                <XAxis dataKey="exchangeId" tick={axis} />
                <YAxis unit=" ms" tick={axis} />
                <Tooltip />
                <Legend />
                <Bar dataKey="firstEventMs" name="time to first event (ms)" fill="var(--accent)" isAnimationActive={false} />
                <Bar dataKey="maxGapMs" name="largest gap (ms)" fill="var(--accent-2)" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          ) : (
            <p>No SSE streams in this run.</p>
          )}
        </ChartCard>
      </div> : null}
      {!seen ? <p className="chart-note">Charts are drawn when this section is on screen.</p> : null}
    </section>
  );
}
