import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtMs } from '../../lib/format';
import { useRunSelector, useRunStoreHandle, type RunStoreState } from '../../lib/run-store';
import { buildTimeline, NO_TIMELINE_FILTER, pct, type ItemKind, type TimelineFilter, type TimelineRow } from './layout';

const KIND_LABELS: [ItemKind, string][] = [
  ['exchange', 'HTTP'],
  ['state', 'State'],
  ['sse', 'SSE'],
];
const STATUS_LABELS: [TimelineFilter['status'], string][] = [
  ['all', 'All outcomes'],
  ['ok', 'OK'],
  ['bad', 'Failed (4xx/5xx, agent errors)'],
  ['tool', 'Our tool or proxy failed'],
  ['pending', 'Pending'],
];

/** Filters of the timeline: check, kinds of items, outcome. */
function TimelineFilters({ filter, onChange }: { filter: TimelineFilter; onChange: (f: TimelineFilter) => void }) {
  const id = useId();
  // Check ids with at least one exchange, in start order (a string key keeps the selector stable).
  const checkKey = useRunSelector(
    useShallow((s: RunStoreState) => {
      const seen = new Set<string>();
      for (const xid of s.run.exchangeOrder) {
        const c = s.run.exchanges[xid]?.checkId;
        if (c) seen.add(c);
      }
      return s.run.checkOrder.filter((c) => seen.has(c));
    }),
  );
  const toggleKind = (k: ItemKind, on: boolean) => {
    const kinds = new Set(filter.kinds);
    if (on) kinds.add(k);
    else kinds.delete(k);
    onChange({ ...filter, kinds });
  };
  return (
    <div className="filters timeline-filters" role="group" aria-label="Filter timeline">
      <span className="field-inline">
        <label htmlFor={`${id}-check`}>Check</label>
        <select id={`${id}-check`} value={filter.check} onChange={(e) => onChange({ ...filter, check: e.target.value })}>
          <option value="all">All checks</option>
          {filter.check !== 'all' && !checkKey.includes(filter.check) ? <option value={filter.check}>{filter.check}</option> : null}
          {checkKey.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </span>
      <fieldset className="kinds">
        <legend>Kinds</legend>
        {KIND_LABELS.map(([k, label]) => (
          <label key={k} className="field-inline">
            <input type="checkbox" checked={filter.kinds.has(k)} onChange={(e) => toggleKind(k, e.target.checked)} /> {label}
          </label>
        ))}
      </fieldset>
      <span className="field-inline">
        <label htmlFor={`${id}-status`}>Item status</label>
        <select id={`${id}-status`} value={filter.status} onChange={(e) => onChange({ ...filter, status: e.target.value as TimelineFilter['status'] })}>
          {STATUS_LABELS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </span>
      {filter !== NO_TIMELINE_FILTER ? (
        <button type="button" onClick={() => onChange(NO_TIMELINE_FILTER)}>
          Clear timeline filters
        </button>
      ) : null}
    </div>
  );
}

const ROW_HEIGHT = 28;

/**
 * The live timeline (region "Timeline"): one lane per test task, HTTP exchanges, SSE events and
 * task-state transitions on a shared time axis. Virtualized: only the visible rows are in the DOM.
 */
export function Timeline({ initialHeight = 420 }: { initialHeight?: number }) {
  const run = useRunSelector((s) => s.run);
  const selected = useRunSelector((s) => s.selected);
  const handle = useRunStoreHandle();
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [follow, setFollow] = useState(true);
  const [filter, setFilter] = useState<TimelineFilter>(NO_TIMELINE_FILTER);
  const model = useMemo(() => buildTimeline(run, collapsed, filter), [run, collapsed, filter]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // A stable key function: a new one each render would make the virtualizer re-measure every row every
  // frame while a run streams in (rows have a fixed height, so positions never depend on the keys).
  const rowsRef = useRef(model.rows);
  rowsRef.current = model.rows;
  const getItemKey = useCallback((i: number) => rowsRef.current[i]?.key ?? i, []);
  // The React Compiler (not used in this build) would skip this component because of TanStack Virtual; the hooks
  // rules still check it. `rowsRef` is written while rendering on purpose: the virtualizer asks for keys during render.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const v = useVirtualizer({
    count: model.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 800, height: initialHeight },
    getItemKey,
  });
  const running = run.status === 'running';
  const total = v.getTotalSize();
  useEffect(() => {
    // Written in the next animation frame, where the browser lays the page out anyway: writing scrollTop
    // from the effect itself forced a second, synchronous layout of the whole page on every batch.
    if (!follow || !running) return undefined;
    const id = requestAnimationFrame(() => {
      if (scrollRef.current) scrollRef.current.scrollTop = total;
    });
    return () => cancelAnimationFrame(id);
  }, [follow, running, total]);
  const toggleLane = useCallback(
    (lane: string) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(lane)) next.delete(lane);
        else next.add(lane);
        return next;
      }),
    [],
  );
  const select = useCallback((key: string) => handle.select(key), [handle]);
  // Roving focus: one item is in the tab order; arrows, Page Up/Down, Home and End move through all
  // of them (scrolling the virtual list), Enter or Space opens the item.
  const [active, setActive] = useState(0);
  const pendingFocus = useRef<number | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const rowCount = model.rows.length;
  const activeIndex = Math.min(active, Math.max(0, rowCount - 1));
  useEffect(() => {
    if (pendingFocus.current === null) return;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-index="${pendingFocus.current}"] button`);
    if (el) {
      el.focus({ preventScroll: true });
      pendingFocus.current = null;
    }
  });
  const onKeyDown = (e: KeyboardEvent) => {
    const page = Math.max(1, Math.floor(initialHeight / ROW_HEIGHT) - 1);
    const next = (
      {
        ArrowDown: activeIndex + 1,
        ArrowUp: activeIndex - 1,
        PageDown: activeIndex + page,
        PageUp: activeIndex - page,
        Home: 0,
        End: rowCount - 1,
      } as Record<string, number>
    )[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(rowCount - 1, next));
    setActive(i);
    setFollow(false);
    pendingFocus.current = i;
    v.scrollToIndex(i, { align: 'auto' });
  };
  const onFocusItem = useCallback((i: number) => setActive(i), []);
  const visible = v.getVirtualItems();
  const activeRendered = visible.some((vi) => vi.index === activeIndex);
  if (!model.rows.length && filter === NO_TIMELINE_FILTER) {
    return (
      <section className="timeline" aria-label="Timeline">
        <h2>Timeline</h2>
        <p>{running ? 'Waiting for the first request…' : 'No exchanges recorded.'}</p>
      </section>
    );
  }
  const span = model.t1 - model.t0;
  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-head">
        <h2>Timeline</h2>
        <p className="timeline-meta" aria-live="off">
          {run.lanes.length} lanes · {model.itemCount} items · {fmtMs(span)}
        </p>
        <label className="field-inline">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow live
        </label>
      </div>
      <TimelineFilters filter={filter} onChange={setFilter} />
      {!model.rows.length ? <p>No item matches these filters.</p> : null}
      <div className="timeline-axis" aria-hidden="true">
        <span>0</span>
        <span>{fmtMs(span / 2)}</span>
        <span>{fmtMs(span)}</span>
      </div>
      <div
        ref={scrollRef}
        className="timeline-scroll"
        style={{ height: initialHeight }}
        tabIndex={activeRendered ? -1 : 0}
        role={activeRendered ? undefined : 'group'}
        aria-label={activeRendered ? undefined : 'Timeline items (use the arrow keys)'}
        onKeyDown={onKeyDown}
      >
        <div ref={listRef} role="list" aria-label="Timeline items" style={{ height: total, position: 'relative' }}>
          {visible.map((vi) => {
            const row = model.rows[vi.index]!;
            return (
              <div
                key={vi.key}
                role="listitem"
                data-index={vi.index}
                aria-setsize={model.rows.length}
                aria-posinset={vi.index + 1}
                className={`tl-row tl-${row.kind}`}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${vi.start}px)` }}
              >
                <Row
                  row={row}
                  index={vi.index}
                  tabbable={vi.index === activeIndex}
                  t0={model.t0}
                  t1={model.t1}
                  selected={selected}
                  onSelect={select}
                  onToggleLane={toggleLane}
                  onFocusItem={onFocusItem}
                />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

const Row = memo(function Row({
  row,
  index,
  tabbable,
  t0,
  t1,
  selected,
  onSelect,
  onToggleLane,
  onFocusItem,
}: {
  row: TimelineRow;
  index: number;
  tabbable: boolean;
  onFocusItem: (i: number) => void;
  t0: number;
  t1: number;
  selected: string | null;
  onSelect: (key: string) => void;
  onToggleLane: (lane: string) => void;
}) {
  if (row.kind === 'lane') {
    return (
      <button
        type="button"
        className="tl-lane"
        tabIndex={tabbable ? 0 : -1}
        onFocus={() => onFocusItem(index)}
        aria-expanded={!row.collapsed}
        onClick={() => onToggleLane(row.lane)}
      >
        <span aria-hidden="true">{row.collapsed ? '▸' : '▾'}</span> Lane {row.lane} ({row.items})
      </button>
    );
  }
  const left = pct(row.start, t0, t1);
  const isSel = selected === row.key || (row.kind === 'sse' && selected === row.exchangeId);
  const width = row.kind === 'exchange' ? Math.max(0.4, pct(row.end ?? t1, t0, t1) - left) : 0;
  const kindText = row.kind === 'exchange' ? 'HTTP' : row.kind === 'sse' ? 'SSE' : 'State';
  return (
    <button
      type="button"
      className={`tl-item tone-${row.tone}${isSel ? ' selected' : ''}`}
      tabIndex={tabbable ? 0 : -1}
      onFocus={() => onFocusItem(index)}
      aria-pressed={isSel}
      onClick={() => onSelect(row.key)}
      title={`${row.label}: ${row.detail}`}
    >
      <span className="tl-label">
        <span className="tl-kind">{kindText}</span> {row.label} <span className="tl-detail">{row.detail}</span>
      </span>
      <span className="tl-track" aria-hidden="true">
        {row.kind === 'exchange' ? (
          <span className="tl-bar" style={{ left: `${left}%`, width: `${width}%` }} />
        ) : (
          <span className={`tl-mark tl-mark-${row.kind}`} style={{ left: `${left}%` }} />
        )}
      </span>
    </button>
  );
});
