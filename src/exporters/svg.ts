import type { CategoryCounts, DurationPoint, LatencyPoint, StreamTiming } from '../engine/report/series';
import { quantile } from '../engine/report/series';
import { CATEGORY_LABELS, cleanText, formatMs } from './common';

/**
 * Static SVG charts for the HTML export, drawn from the engine's chart series (report/series.ts).
 * No script, no external resource: colours come from CSS classes the page defines for light and dark.
 * Each chart is `role="img"` with a `<title>` and a `<desc>` that states its numbers in words;
 * bars carry their own `<title>` (a tooltip without script).
 */

/** Text for HTML/SVG text content and attribute values. */
export function esc(s: string): string {
  return cleanText(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const W = 720;
const LABEL_W = 220;
const PLOT_W = W - LABEL_W - 90;
const ROW_H = 24;
const BAR_H = 16;
const TOP = 30;

/** Largest value, at least 1 (a scale never divides by zero); no spread, so any length works. */
const maxOf = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), 1);
const ms = (v: number | undefined) => (v === undefined ? 'n/a' : formatMs(v));
const short = (s: string, max = 34) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

interface Frame {
  id: string;
  title: string;
  desc: string;
  height: number;
  body: string;
}

function frame({ id, title, desc, height, body }: Frame): string {
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" ` +
    `role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">` +
    `<title id="${id}-title">${esc(title)}</title><desc id="${id}-desc">${esc(desc)}</desc>${body}</svg>`
  );
}

const legend = (items: [cls: string, label: string][]) =>
  items
    .map(
      ([cls, label], i) =>
        `<rect class="${cls}" x="${LABEL_W + i * 110}" y="6" width="12" height="12"/>` +
        `<text class="label" x="${LABEL_W + i * 110 + 16}" y="16">${esc(label)}</text>`,
    )
    .join('');

const rowLabel = (y: number, text: string) => `<text class="label" x="${LABEL_W - 8}" y="${y + BAR_H - 4}" text-anchor="end">${esc(short(text))}</text>`;

const bar = (cls: string, x: number, y: number, w: number, tip: string, h = BAR_H) =>
  `<rect class="${cls}" x="${x.toFixed(1)}" y="${y}" width="${Math.max(0, w).toFixed(1)}" height="${h}"><title>${esc(tip)}</title></rect>`;

/** Stacked horizontal bars: pass / fail / skip / error per category. */
export function resultsPerCategoryChart(rows: CategoryCounts[]): string {
  const max = maxOf(rows.map((r) => r.pass + r.fail + r.advisory + r.skip + r.error));
  const scale = PLOT_W / max;
  const parts = rows.map((r, i) => {
    const y = TOP + i * ROW_H;
    let x = LABEL_W;
    let out = rowLabel(y, CATEGORY_LABELS[r.category]);
    for (const status of ['pass', 'fail', 'advisory', 'skip', 'error'] as const) {
      const w = r[status] * scale;
      if (w > 0) out += bar(status, x, y, w, `${CATEGORY_LABELS[r.category]}: ${r[status]} ${status}`);
      x += w;
    }
    const total = r.pass + r.fail + r.advisory + r.skip + r.error;
    return `${out}<text class="value" x="${(x + 6).toFixed(1)}" y="${y + BAR_H - 4}">${total}</text>`;
  });
  const desc = rows
    .map((r) => `${CATEGORY_LABELS[r.category]}: ${r.pass} passed, ${r.fail} failed, ${r.advisory} advisories, ${r.skip} skipped, ${r.error} tool errors`)
    .join('; ');
  return frame({
    id: 'chart-results',
    title: 'Results per category',
    desc: `${desc}.`,
    height: TOP + rows.length * ROW_H + 6,
    body:
      legend([
        ['pass', 'pass'],
        ['fail', 'fail'],
        ['advisory', 'advisory'],
        ['skip', 'skip'],
        ['error', 'tool error'],
      ]) + parts.join(''),
  });
}

/** The slowest checks, one bar each, coloured by status. */
export function checkDurationsChart(points: DurationPoint[], limit = 15): string {
  const shown = points.slice(0, limit);
  const max = maxOf(shown.map((p) => p.ms));
  const scale = PLOT_W / max;
  const parts = shown.map((p, i) => {
    const y = TOP + i * ROW_H;
    return (
      rowLabel(y, p.id) +
      bar(p.status, LABEL_W, y, p.ms * scale, `${p.id}: ${formatMs(p.ms)} (${p.status})`) +
      `<text class="value" x="${(LABEL_W + p.ms * scale + 6).toFixed(1)}" y="${y + BAR_H - 4}">${esc(formatMs(p.ms))}</text>`
    );
  });
  const all = points.map((p) => p.ms);
  const desc =
    `${points.length} checks; median ${ms(quantile(all, 0.5))}, 95th percentile ${ms(quantile(all, 0.95))}. ` +
    `Slowest: ${shown
      .slice(0, 5)
      .map((p) => `${p.id} ${formatMs(p.ms)}`)
      .join(', ')}.`;
  return frame({
    id: 'chart-durations',
    title: `Check durations (slowest ${shown.length})`,
    desc,
    height: TOP + shown.length * ROW_H + 6,
    body:
      legend([
        ['pass', 'pass'],
        ['fail', 'fail'],
        ['skip', 'skip'],
        ['error', 'tool error'],
      ]) + parts.join(''),
  });
}

/** At most this many columns; longer runs are bucketed (each column shows its bucket's slowest exchange). */
const MAX_COLUMNS = 240;

/** One column per HTTP exchange in request order: total time, with time to first byte as the darker part. */
export function latencyChart(points: LatencyPoint[]): string {
  const H = 220;
  const left = 60;
  const plotW = W - left - 20;
  const plotH = H - TOP - 30;
  const per = Math.ceil(points.length / MAX_COLUMNS) || 1;
  const columns: LatencyPoint[][] = [];
  for (let i = 0; i < points.length; i += per) columns.push(points.slice(i, i + per));
  const max = maxOf(points.map((p) => p.totalMs ?? 0));
  const colW = plotW / Math.max(1, columns.length);
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  const bars = columns.map((col, i) => {
    const worst = col.reduce((a, b) => ((b.totalMs ?? 0) > (a.totalMs ?? 0) ? b : a));
    const x = left + i * colW;
    const w = Math.max(1, colW - (colW > 3 ? 1 : 0));
    const total = worst.totalMs ?? 0;
    const ttfb = Math.min(total, worst.ttfbMs ?? total);
    const tip = `${per > 1 ? `exchanges ${i * per + 1}–${i * per + col.length}, slowest: ` : ''}${worst.label} on ${worst.lane}: total ${ms(worst.totalMs)}, first byte ${ms(worst.ttfbMs)}${worst.status !== undefined ? `, HTTP ${worst.status}` : ''}`;
    return (
      `<g><title>${esc(tip)}</title>` +
      `<rect class="total" x="${x.toFixed(1)}" y="${y(total).toFixed(1)}" width="${w.toFixed(1)}" height="${(TOP + plotH - y(total)).toFixed(1)}"/>` +
      `<rect class="ttfb" x="${x.toFixed(1)}" y="${y(ttfb).toFixed(1)}" width="${w.toFixed(1)}" height="${(TOP + plotH - y(ttfb)).toFixed(1)}"/></g>`
    );
  });
  const totals = points.flatMap((p) => (p.totalMs !== undefined ? [p.totalMs] : []));
  const ttfbs = points.flatMap((p) => (p.ttfbMs !== undefined ? [p.ttfbMs] : []));
  const desc =
    `${points.length} HTTP exchanges in request order${per > 1 ? `, ${per} per column (slowest shown)` : ''}. ` +
    `Total time: median ${ms(quantile(totals, 0.5))}, 95th percentile ${ms(quantile(totals, 0.95))}, max ${ms(max)}. ` +
    `Time to first byte: median ${ms(quantile(ttfbs, 0.5))}, 95th percentile ${ms(quantile(ttfbs, 0.95))}.`;
  const axis =
    `<line class="axis" x1="${left}" y1="${TOP + plotH}" x2="${left + plotW}" y2="${TOP + plotH}"/>` +
    `<line class="axis" x1="${left}" y1="${TOP}" x2="${left}" y2="${TOP + plotH}"/>` +
    `<text class="label" x="${left - 6}" y="${TOP + 4}" text-anchor="end">${esc(formatMs(max))}</text>` +
    `<text class="label" x="${left - 6}" y="${TOP + plotH}" text-anchor="end">0</text>` +
    `<text class="label" x="${left}" y="${H - 8}">first request</text>` +
    `<text class="label" x="${left + plotW}" y="${H - 8}" text-anchor="end">last request</text>`;
  const key =
    `<rect class="ttfb" x="${left}" y="6" width="12" height="12"/><text class="label" x="${left + 16}" y="16">time to first byte</text>` +
    `<rect class="total" x="${left + 150}" y="6" width="12" height="12"/><text class="label" x="${left + 166}" y="16">total</text>`;
  return frame({ id: 'chart-latency', title: 'HTTP exchange latency', desc, height: H, body: key + axis + bars.join('') });
}

/** Per SSE stream: time to the first event and the longest gap between events. */
export function streamChart(streams: StreamTiming[], limit = 15): string {
  const shown = [...streams].sort((a, b) => (b.firstEventMs ?? 0) - (a.firstEventMs ?? 0)).slice(0, limit);
  const max = maxOf(shown.flatMap((s) => [s.firstEventMs ?? 0, s.maxGapMs ?? 0]));
  // Narrower than the other charts: the value label (`160 ms / 320 ms`) is longer.
  const scale = (PLOT_W - 60) / max;
  const rowH = ROW_H + 8;
  const parts = shown.map((s, i) => {
    const y = TOP + i * rowH;
    const first = s.firstEventMs ?? 0;
    const gap = s.maxGapMs ?? 0;
    return (
      rowLabel(y + 2, `${s.lane} (${s.exchangeId})`) +
      bar('first', LABEL_W, y, first * scale, `${s.exchangeId}: first event after ${ms(s.firstEventMs)}`, 10) +
      bar('gap', LABEL_W, y + 11, gap * scale, `${s.exchangeId}: longest gap ${ms(s.maxGapMs)} over ${s.events} events`, 10) +
      `<text class="value" x="${(LABEL_W + Math.max(first, gap) * scale + 6).toFixed(1)}" y="${y + 14}">${esc(`${ms(s.firstEventMs)} / ${ms(s.maxGapMs)}`)}</text>`
    );
  });
  const firsts = streams.flatMap((s) => (s.firstEventMs !== undefined ? [s.firstEventMs] : []));
  const gaps = streams.flatMap((s) => s.gapsMs);
  const desc =
    `${streams.length} SSE streams, ${streams.reduce((n, s) => n + s.events, 0)} events. ` +
    `Time to first event: median ${ms(quantile(firsts, 0.5))}, 95th percentile ${ms(quantile(firsts, 0.95))}. ` +
    `Gaps between events: median ${ms(quantile(gaps, 0.5))}, 95th percentile ${ms(quantile(gaps, 0.95))}, ` +
    `max ${ms(quantile(gaps, 1))}.`;
  return frame({
    id: 'chart-sse',
    title: `SSE time to first event and longest gap${streams.length > shown.length ? ` (${shown.length} slowest of ${streams.length} streams)` : ''}`,
    desc,
    height: TOP + shown.length * rowH + 6,
    body:
      legend([
        ['first', 'first event'],
        ['gap', 'longest gap'],
      ]) + parts.join(''),
  });
}
