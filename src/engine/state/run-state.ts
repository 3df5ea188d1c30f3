import type { Category, CheckResult, CheckStatus, Obligation } from '../model/check';
import type {
  HttpRequestInfo,
  HttpResponseInfo,
  ObservationWindowUse,
  RunEvent,
  RunOptionsPublic,
  TargetInfo,
  TaskState,
  Timings,
  TransportError,
} from '../model/events';

export type RunStatus = 'idle' | 'running' | 'completed' | 'interrupted' | 'errored';

export interface CheckRunState {
  id: string;
  title: string;
  category: Category;
  level: Obligation;
  status: 'running' | CheckStatus;
  startedAt: number;
  finishedAt?: number;
  result?: CheckResult;
}

export interface Exchange {
  id: string;
  lane: string;
  checkId?: string;
  request: HttpRequestInfo;
  response?: HttpResponseInfo;
  error?: TransportError;
  timings: Timings;
  /** Number of SSE events seen on this exchange. */
  sseCount: number;
}

export interface SseRecord {
  exchangeId: string;
  lane: string;
  seq: number;
  at: number;
  event?: string;
  id?: string;
  data: string;
  summary?: string;
}

export interface TaskStateRecord {
  lane: string;
  taskId: string;
  state: TaskState;
  rawState: string;
  source: string;
  at: number;
}

/** What the dashboard, CLI and saved reports show: the fold of a run's events. */
export interface RunState {
  runId?: string;
  status: RunStatus;
  startedAt?: number;
  finishedAt?: number;
  agentUrl?: string;
  peerUrl?: string;
  options?: RunOptionsPublic;
  tool?: { name: string; version: string };
  error?: string;
  targets: { agent?: TargetInfo; peer?: TargetInfo };
  checks: Record<string, CheckRunState>;
  checkOrder: string[];
  exchanges: Record<string, Exchange>;
  exchangeOrder: string[];
  sse: SseRecord[];
  taskStates: TaskStateRecord[];
  /** Timeline lanes in order of first appearance. */
  lanes: string[];
  logs: { at: number; level: string; message: string; window?: ObservationWindowUse }[];
  eventCount: number;
}

export const initialRunState = (): RunState => ({
  status: 'idle',
  targets: {},
  checks: {},
  checkOrder: [],
  exchanges: {},
  exchangeOrder: [],
  sse: [],
  taskStates: [],
  lanes: [],
  logs: [],
  eventCount: 0,
});

/**
 * Folds a batch of events into a new state. Pure: `state` is not modified.
 * Collections are copied once per batch (not per event), so a UI that batches per animation frame
 * stays linear in the number of events.
 */
export function applyEvents(state: RunState, events: readonly RunEvent[]): RunState {
  if (events.length === 0) return state;
  const s: RunState = {
    ...state,
    targets: { ...state.targets },
    checks: { ...state.checks },
    checkOrder: state.checkOrder.slice(),
    exchanges: { ...state.exchanges },
    exchangeOrder: state.exchangeOrder.slice(),
    sse: state.sse.slice(),
    taskStates: state.taskStates.slice(),
    lanes: state.lanes.slice(),
    logs: state.logs.slice(),
  };
  const laneSet = new Set(s.lanes);
  const addLane = (lane: string) => {
    if (!laneSet.has(lane)) {
      laneSet.add(lane);
      s.lanes.push(lane);
    }
  };
  for (const e of events) {
    s.eventCount++;
    switch (e.type) {
      case 'run-started':
        Object.assign(s, initialRunState(), {
          runId: e.runId,
          status: 'running',
          startedAt: e.at,
          agentUrl: e.agentUrl,
          peerUrl: e.peerUrl,
          options: e.options,
          tool: e.tool,
          eventCount: 1,
        });
        laneSet.clear();
        break;
      case 'target-resolved':
        s.targets[e.target.role] = e.target;
        break;
      case 'check-started':
        if (!s.checks[e.checkId]) s.checkOrder.push(e.checkId);
        s.checks[e.checkId] = {
          id: e.checkId,
          title: e.title,
          category: e.category,
          level: e.level,
          status: 'running',
          startedAt: e.at,
        };
        break;
      case 'check-finished': {
        const prev = s.checks[e.result.id];
        if (!prev) s.checkOrder.push(e.result.id);
        s.checks[e.result.id] = {
          id: e.result.id,
          title: e.result.test,
          category: e.result.category,
          level: e.result.level,
          startedAt: prev?.startedAt ?? e.at - e.result.duration_ms,
          finishedAt: e.at,
          status: e.result.status,
          result: e.result,
        };
        break;
      }
      case 'http-request':
        addLane(e.lane);
        if (!s.exchanges[e.exchangeId]) s.exchangeOrder.push(e.exchangeId);
        s.exchanges[e.exchangeId] = {
          id: e.exchangeId,
          lane: e.lane,
          checkId: e.checkId,
          request: e.request,
          timings: { startedAt: e.at },
          sseCount: 0,
        };
        break;
      case 'http-response': {
        const x = s.exchanges[e.exchangeId];
        if (x) s.exchanges[e.exchangeId] = { ...x, response: e.response ?? x.response, error: e.error, timings: e.timings };
        break;
      }
      case 'sse-event': {
        addLane(e.lane);
        s.sse.push({
          exchangeId: e.exchangeId,
          lane: e.lane,
          seq: e.seq,
          at: e.at,
          event: e.event,
          id: e.id,
          data: e.data,
          summary: e.summary,
        });
        const x = s.exchanges[e.exchangeId];
        if (x) s.exchanges[e.exchangeId] = { ...x, sseCount: x.sseCount + 1 };
        break;
      }
      case 'task-state':
        addLane(e.lane);
        s.taskStates.push({
          lane: e.lane,
          taskId: e.taskId,
          state: e.state,
          rawState: e.rawState,
          source: e.source,
          at: e.at,
        });
        break;
      case 'log':
        s.logs.push({ at: e.at, level: e.level, message: e.message, ...(e.window && { window: e.window }) });
        break;
      case 'run-finished':
        s.status = e.status;
        s.finishedAt = e.at;
        s.error = e.error;
        // Checks still running when the run ended never finished: leave them visible as such.
        break;
    }
  }
  return s;
}

/** Results of finished checks, in the order they started. */
export const resultsOf = (s: RunState): CheckResult[] => s.checkOrder.map((id) => s.checks[id]?.result).filter((r): r is CheckResult => r !== undefined);
