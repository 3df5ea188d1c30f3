/**
 * The engine's own cost (`npx tsx bench/run.ts engine`), on synthetic input so the agent does not count:
 * - per SSE event through the HTTP client (eventsource-parser, redaction, bounded event record);
 * - per exchange through the HTTP client (fetch stand-in answering at once);
 * - events per second through the reducer, batched per frame (as the dashboard does) and one by one;
 * - heap for a run of 10,000 events (folded state + the event log), after GC when exposed.
 */
import { applyEvents, DEFAULT_LIMITS, initialRunState, Redactor, type RunEvent } from '../src/engine';
import { exchange, stream, type HttpContext } from '../src/engine/http/client';
import { timerSleep, type Host } from '../src/engine/ports';
import { syntheticRun } from '../src/testing/fixtures/events';
import type { BenchRow, BenchSection } from './run';

function ctxWith(fetchImpl: Host['fetch']): HttpContext & { events: RunEvent[] } {
  const events: RunEvent[] = [];
  let n = 0;
  return {
    host: { fetch: fetchImpl, now: () => Date.now(), sleep: timerSleep, randomUUID: () => `id-${++n}` },
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    redactor: new Redactor().addSecret('bench-secret-token'),
    newId: (p) => `${p}${++n}`,
    limits: { ...DEFAULT_LIMITS, maxStreamEvents: 1_000_000 },
    events,
  };
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

export async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];

  // SSE: 20,000 status events in 64 KB chunks (events split across chunks).
  const N = 20_000;
  const frame = (i: number) =>
    `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:00.000Z' } }, seq: i } })}\n\n`;
  const body = new TextEncoder().encode(Array.from({ length: N }, (_, i) => frame(i)).join(''));
  const sseCtx = ctxWith(async () => {
    let off = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (off >= body.length) return c.close();
          c.enqueue(body.subarray(off, off + 65_536));
          off += 65_536;
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  });
  let t0 = performance.now();
  const out = await stream(sseCtx, { method: 'POST', url: 'http://bench.test/', lane: 'bench', timeoutMs: 60_000 }, () => undefined);
  const sseMs = performance.now() - t0;
  rows.push(
    { metric: 'SSE: events parsed and recorded', value: out.events, note: `${(body.length / 1024 / 1024).toFixed(1)} MB in 64 KB chunks` },
    { metric: 'SSE: cost per event', value: (sseMs * 1000) / out.events, unit: 'µs' },
    { metric: 'SSE: events per second', value: Math.round(out.events / (sseMs / 1000)), unit: '/s' },
  );

  // Exchanges: 5,000 JSON-RPC calls answered at once by a fetch stand-in.
  const reply = JSON.stringify({ jsonrpc: '2.0', id: 'r', result: { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } } });
  const xCtx = ctxWith(async () => new Response(reply, { headers: { 'content-type': 'application/json' } }));
  const X = 5_000;
  t0 = performance.now();
  for (let i = 0; i < X; i++) {
    await exchange(xCtx, {
      method: 'POST',
      url: 'http://bench.test/rpc',
      body: '{"jsonrpc":"2.0","id":"r","method":"GetTask","params":{"id":"t"}}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-secret-token' },
      lane: 'bench',
    });
  }
  const xMs = performance.now() - t0;
  rows.push({ metric: 'exchange: cost per request/response (incl. event records)', value: (xMs * 1000) / X, unit: 'µs', note: `${X} calls` });

  // Reducer: a realistic 10,000-event run.
  const events = syntheticRun({ targetEvents: 10_000 }) as RunEvent[];
  t0 = performance.now();
  let s = initialRunState();
  for (let i = 0; i < events.length; i += 100) s = applyEvents(s, events.slice(i, i + 100));
  const batched = performance.now() - t0;
  t0 = performance.now();
  let one = initialRunState();
  for (const e of events) one = applyEvents(one, [e]);
  const single = performance.now() - t0;
  rows.push(
    {
      metric: 'reducer: events/s, batches of 100 (per-frame path)',
      value: Math.round(events.length / (batched / 1000)),
      unit: '/s',
      note: `${events.length} events in ${batched.toFixed(1)} ms`,
    },
    {
      metric: 'reducer: events/s, one event per call',
      value: Math.round(events.length / (single / 1000)),
      unit: '/s',
      note: `${single.toFixed(0)} ms (copies collections per call)`,
    },
  );

  // Memory for a 10,000-event run: the folded state plus the log the report embeds.
  const before = heapMb();
  const keep: { state: ReturnType<typeof initialRunState>; log: RunEvent[] } = {
    state: applyEvents(initialRunState(), events),
    log: syntheticRun({ targetEvents: 10_000 }) as RunEvent[],
  };
  const after = heapMb();
  rows.push({
    metric: 'heap for a 10,000-event run (state + event log)',
    value: Math.round((after - before) * 10) / 10,
    unit: 'MB',
    note: `${(globalThis as { gc?: unknown }).gc ? 'after GC' : 'no --expose-gc: includes garbage'}; JSON size ${(JSON.stringify(keep.log).length / 1024 / 1024).toFixed(1)} MB`,
  });
  void keep.state.eventCount;
  return { title: 'Engine cost (synthetic input, no network)', rows };
}
