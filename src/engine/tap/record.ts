/**
 * The tap's record: its events (bounded, oldest dropped first), the exchanges they make up and the findings, with
 * the live subscribers. Everything put here is already masked and capped by the caller.
 */
import type {
  TapEvent,
  TapExchangeEnd,
  TapExchangeRecord,
  TapExchangeStart,
  TapFaults,
  TapFinding,
  TapLimits,
  TapReport,
  TapSide,
  TapSideSummary,
  TapTargetInfo,
} from './types';

/** Distributive Omit: keeps each member of the union apart. */
type WithoutSeq<E> = E extends TapEvent ? Omit<E, 'seq'> : never;
export type NewTapEvent = WithoutSeq<TapEvent>;

export const DEFAULT_TAP_LIMITS: TapLimits = { maxEvents: 5_000, maxBodyBytes: 64 * 1024, maxRequestBytes: 4 * 1024 * 1024, maxExchanges: 1_000 };
const MAX_FINDINGS = 5_000;
const MAX_FRAMES_PER_EXCHANGE = 500;

export class TapRecord {
  private seq = 0;
  private readonly events: TapEvent[] = [];
  private readonly exchanges = new Map<string, TapExchangeRecord>();
  private readonly findings: TapFinding[] = [];
  private readonly subscribers = new Set<(e: TapEvent) => void>();
  private droppedEvents = 0;
  private droppedExchanges = 0;
  target?: TapTargetInfo;

  constructor(
    private readonly limits: TapLimits,
    readonly startedAt: number,
  ) {}

  emit(e: NewTapEvent): TapEvent {
    const ev = { ...e, seq: ++this.seq } as TapEvent;
    this.events.push(ev);
    if (this.events.length > this.limits.maxEvents) {
      this.events.shift();
      this.droppedEvents++;
    }
    this.fold(ev);
    for (const cb of [...this.subscribers]) {
      try {
        cb(ev);
      } catch {
        /* a failing subscriber must not break the relay */
      }
    }
    return ev;
  }

  private fold(ev: TapEvent): void {
    switch (ev.kind) {
      case 'exchange-start': {
        const { kind: _k, seq: _s, side: _d, id, at, ...request } = ev satisfies TapExchangeStart;
        this.exchanges.set(id, { id, request: { ...request, at }, frames: [] });
        if (this.exchanges.size > this.limits.maxExchanges) {
          const first = this.exchanges.keys().next();
          if (!first.done) this.exchanges.delete(first.value);
          this.droppedExchanges++;
        }
        break;
      }
      case 'exchange-end': {
        const x = this.exchanges.get(ev.id);
        const { kind: _k, seq: _s, side: _d, id: _i, at, ...response } = ev satisfies TapExchangeEnd;
        if (x) x.response = { ...response, at };
        break;
      }
      case 'sse-frame': {
        const x = this.exchanges.get(ev.id);
        if (x && x.frames.length < MAX_FRAMES_PER_EXCHANGE)
          x.frames.push({ frame: ev.frame, ms: ev.ms, ...(ev.event !== undefined && { event: ev.event }), data: ev.data });
        break;
      }
      case 'finding':
        if (this.findings.length < MAX_FINDINGS) this.findings.push(ev.finding);
        break;
      case 'target':
        this.target = ev.target;
        break;
      case 'fault':
        break;
    }
  }

  subscribe(cb: (e: TapEvent) => void): () => void {
    this.subscribers.add(cb);
    return () => this.subscribers.delete(cb);
  }

  list(afterSeq = 0): TapEvent[] {
    return this.events.filter((e) => e.seq > afterSeq);
  }

  clearSubscribers(): void {
    this.subscribers.clear();
  }

  report(agentUrl: string, faults: TapFaults, at: number, extra: readonly TapFinding[] = []): TapReport {
    const findings = [...this.findings, ...extra];
    const exchanges = [...this.exchanges.values()].map((x) => ({ ...x, frames: [...x.frames] }));
    return {
      tool: 'a2a-interop tap',
      agentUrl,
      ...(this.target && { target: this.target }),
      startedAt: this.startedAt,
      at,
      exchanges,
      findings,
      faults: { ...faults },
      summary: {
        client: sideSummary(findings, 'client', exchanges.length > 0),
        agent: sideSummary(
          findings,
          'agent',
          exchanges.some((x) => x.response),
        ),
        exchanges: exchanges.length + this.droppedExchanges,
      },
      dropped: { events: this.droppedEvents, exchanges: this.droppedExchanges },
    };
  }
}

/** One side's verdict: a MUST or SHOULD broken fails it; advisories alone leave it `advisory`. */
export function sideSummary(findings: readonly TapFinding[], side: TapSide, observed: boolean): TapSideSummary {
  const mine = findings.filter((f) => f.side === side);
  const must = mine.filter((f) => f.level === 'MUST').length;
  const should = mine.filter((f) => f.level === 'SHOULD').length;
  const advisory = mine.filter((f) => f.level === 'advisory').length;
  const verdict = must || should ? 'fail' : advisory ? 'advisory' : observed ? 'pass' : 'not-observed';
  return { verdict, must, should, advisory };
}
