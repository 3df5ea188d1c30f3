/**
 * The defect matrix and its mirror, the permitted-behaviour matrix, run against the project's test agent on every
 * generation and binding (legacy, v0.2, v0.3, v1.0; JSON-RPC and HTTP+JSON; gRPC in v1.0):
 * - the clean agent's complete result set, per target and setup, is pinned (snapshot files) and its level is full;
 * - each defect makes exactly its checks fail (an `error` never counts as a detection), with the expected level;
 *   checks that only MAY-level text backs come out as advisories, and so do weaker findings of stronger checks
 *   (`advises`, never counted as detections);
 * - each permitted behaviour leaves the agent as clean as the plain agent (no failure it does not have, exactly the
 *   advisories listed, the same level) and makes the checks it exercises pass;
 * - every check has, on every target where it applies, at least one defect that makes it fail (an advisory for
 *   checks the generation backs only with MAY) and one permitted behaviour that leaves it passing, except the few
 *   (check, target) pairs of EXEMPT, each with its reason.
 * Findings of the suite that look wrong are marked `// CHECK BUG:` and listed in `checkBugs`: the test asserts the
 * bug is still there (so the marker is dropped once the check is fixed) and keeps them out of the coverage claims.
 * Most of this file is two lists of independent entries (DEFECTS and PERMITTED, one per behaviour of the test agent).
 * While working on one target, `MATRIX_TARGETS='v1.0 GRPC' npx vitest run src/engine/checks/matrix.test.ts` runs only
 * its cases (comma-separated targets; the coverage claims then hold for those targets only).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from './index';
import { reportResults } from '../report/build';
import type { CheckResult } from '../model/check';
import type { ConformanceLevel, Report } from '../model/report';
import { DEFECT_NAMES, type DefectName } from '../../testing/defect-agent/defects';
import { PERMITTED_NAMES, type PermittedName } from '../../testing/defect-agent/permitted';
import {
  caseKey,
  MATRIX_SECRET,
  pinnedMatrixFile,
  pool,
  runCase,
  setupApplies,
  SETUPS,
  TARGETS,
  type CaseSpec,
  type Setup,
  type Target,
} from '../../testing/defect-agent/matrix';

/** The run was started with `vitest -u` (snapshots may be written); a missing snapshot is otherwise a failure. */
function updatingSnapshots(): boolean {
  const state = expect.getState().snapshotState as { snapshotUpdateState?: string } | undefined;
  return state?.snapshotUpdateState === 'all';
}

type Outcome = ConformanceLevel | 'not-assessed';
type PerTarget<T> = Partial<Record<Target, T>>;

/** The targets this run covers: all, or those of MATRIX_TARGETS (see above). */
const RUN_TARGETS: readonly Target[] = process.env.MATRIX_TARGETS
  ? TARGETS.filter((t) =>
      process.env
        .MATRIX_TARGETS!.split(',')
        .map((x) => x.trim())
        .includes(t),
    )
  : TARGETS;
const runs = (c: { target: Target }) => RUN_TARGETS.includes(c.target);
const ALL = TARGETS;
const LEGACY: readonly Target[] = ['legacy JSONRPC'];
const V02: readonly Target[] = ['v0.2 JSONRPC'];
const JSONRPC = TARGETS.filter((t) => t.endsWith('JSONRPC'));
const REST = TARGETS.filter((t) => t.endsWith('HTTP+JSON'));
/** The bindings over HTTP (JSON-RPC and HTTP+JSON): every target but gRPC. */
const HTTP = TARGETS.filter((t) => !t.endsWith('GRPC'));
const GRPC: readonly Target[] = ['v1.0 GRPC'];
const V1 = TARGETS.filter((t) => t.startsWith('v1.0'));
const V1_HTTP = V1.filter((t) => HTTP.includes(t));
/**
 * Targets of `ts` over HTTP: for defects and variants that do not exist on gRPC (SSE framing, JSON bodies, HTTP
 * headers, proto3 fields that cannot be absent) or whose only checks need what gRPC has not (`json-wire` and the
 * other BindingNeeds in preconditions.ts: not applicable to gRPC).
 */
const http = (ts: readonly Target[]) => ts.filter((t) => HTTP.includes(t));
const V03 = TARGETS.filter((t) => t.startsWith('v0.3'));
const V03_UP = TARGETS.filter((t) => t.startsWith('v0.3') || t.startsWith('v1.0'));
const V02_UP = TARGETS.filter((t) => !t.startsWith('legacy'));
const PRE_V1 = TARGETS.filter((t) => !t.startsWith('v1.0'));
const V0X = TARGETS.filter((t) => t.startsWith('v0.'));
const V03_REST: readonly Target[] = ['v0.3 HTTP+JSON'];
const V1_REST: readonly Target[] = ['v1.0 HTTP+JSON'];
const V1_JSONRPC: readonly Target[] = ['v1.0 JSONRPC'];
/** The same value on each of `targets`. */
const each = <T>(targets: readonly Target[], v: T): PerTarget<T> => Object.fromEntries(targets.map((t) => [t, v]));

interface DefectExpectation {
  setup?: Setup;
  /** Targets the defect exists on (default: all). */
  on?: readonly Target[];
  /** Checks that must not pass: status fail (advisory where the generation says only MAY). These are detections. */
  fails: readonly string[];
  failsOn?: PerTarget<readonly string[]>;
  /** Checks that must come out as advisories although the generation backs them with MUST/SHOULD (weaker findings). */
  advises?: readonly string[];
  advisesOn?: PerTarget<readonly string[]>;
  /** Checks that may also be flagged as a timing-dependent consequence of the same defect. */
  mayFail?: readonly string[];
  level: Outcome;
  levelOn?: PerTarget<Outcome>;
  /** Apply the defect to the peer agent (setup `peer`). */
  peer?: boolean;
  /** Flagged checks whose finding is wrong (see CHECK BUG comments): expected, but never a detection. */
  checkBugs?: readonly string[];
}

interface PermittedExpectation {
  setup?: Setup;
  on?: readonly Target[];
  /** Checks the behaviour exercises: they must pass with it. */
  passes: readonly string[];
  passesOn?: PerTarget<readonly string[]>;
  /** Advisories the behaviour brings (permitted, but worth a note): exactly these, beyond the plain agent's. */
  advises?: readonly string[];
  advisesOn?: PerTarget<readonly string[]>;
  /** Who shows the behaviour in setup `peer`: the agent (default), the peer only, or both. */
  who?: 'agent' | 'peer' | 'both';
  /** Checks the suite judges wrongly with this behaviour (see CHECK BUG comments), and the level it then gives. */
  checkBugs?: readonly string[];
  level?: Outcome;
  /** The check bugs show only when a race goes one way: tolerated, not required (the level follows). */
  racy?: boolean;
}

const CORS = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];

/**
 * (check, targets) pairs no defect of any agent can make fail, with the reason. Subtracted from the defect coverage
 * only: a permitted behaviour must still pass them.
 */
const EXEMPT: { check: string; on: readonly Target[]; why: string }[] = [
  {
    check: 'streaming.first-event',
    on: PRE_V1,
    why: 'No release before v1.0 fixes the first event of a stream: the check passes any first event there (and skips errors and invalid events).',
  },
  {
    check: 'card.well-known-path',
    on: [...LEGACY, ...V02],
    why: 'Legacy and v0.2 cards pass at either well-known name (agent.json, or the newer agent-card.json), and discovery finds no card anywhere else.',
  },
  {
    check: 'interop.peer.concurrent',
    on: LEGACY,
    why: "Legacy clients choose the task ids (tasks/send id): two tasks of one agent share an id only when the agent disregards the client's id, which lifecycle.send already fails; no defect isolates it.",
  },
];

const DEFECTS: Record<DefectName, DefectExpectation | DefectExpectation[]> = {
  // ------------------------------------------------------------------ card
  'card-capabilities-array': { fails: ['card.capabilities.shape'], level: 'non-conformant' },
  'card-capabilities-strings': { on: ['legacy JSONRPC', 'v1.0 JSONRPC'], fails: ['card.capabilities.shape'], level: 'non-conformant' },
  'card-missing-skills': { fails: ['card.required-fields', 'card.skills'], level: 'non-conformant' },
  'card-skill-no-description': { fails: ['card.skills'], level: 'non-conformant' },
  'card-modes-not-list': { fails: ['card.modes'], level: 'non-conformant' },
  'card-mode-shorthand': { on: V02_UP, fails: ['card.modes.media-types'], level: 'full' },
  'card-html-404': [
    { fails: ['card.discovery'], level: 'not-assessed' },
    // On the peer: the two-agent checks that read the peer card (MAY: advisories).
    { peer: true, fails: ['interop.peer.card', 'interop.peer.common'], level: 'full' },
  ],
  'card-bom': { fails: ['card.json'], level: 'non-conformant' },
  // RFC 9110 §8.3 asks only for a Content-Type: another media type is a remark; no Content-Type at all fails the SHOULD.
  'card-wrong-content-type': { fails: [], advises: ['card.content-type'], level: 'full' },
  'card-no-content-type': { fails: ['card.content-type'], level: 'partial' },
  'card-relative-url': { fails: ['card.urls.endpoint'], level: 'non-conformant' },
  'card-doc-url-javascript': { fails: ['card.urls.other'], level: 'full' },
  // A wrongly typed optional field: normalization reports it under card.required-fields; strict parsers reject it too.
  'card-doc-url-not-string': { fails: ['card.required-fields', 'card.strict-lint'], level: 'non-conformant' },
  'card-undeclared-security': { setup: 'auth', on: V02_UP, fails: ['card.security.references'], level: 'non-conformant' },
  'card-oauth-no-token-url': { setup: 'auth', on: V02_UP, fails: ['card.security.schemes'], level: 'non-conformant' },
  // v1.0: in a password flow, which is also deprecated (an advisory of card.security.schemes).
  'card-oauth-relative-url': { setup: 'auth', on: V02_UP, fails: ['card.urls.oauth'], advisesOn: each(V1, ['card.security.schemes']), level: 'non-conformant' },
  'card-apikey-no-name': { setup: 'auth', on: V02_UP, fails: ['card.security.schemes'], level: 'non-conformant' },
  'card-legacy-schemes-string': { setup: 'auth', on: LEGACY, fails: ['card.security.schemes'], level: 'non-conformant' },
  'card-interface-no-version': { on: V02_UP, fails: ['card.protocol.coherence'], level: 'non-conformant' },
  'card-binding-spelling': { on: V1, fails: ['card.protocol.conventions'], level: 'partial' },
  'card-behind-auth': { setup: 'auth', fails: ['card.public', 'interop.cors.card'], level: 'full' },
  'card-huge': { fails: [], level: 'not-assessed' },
  'card-legacy-path-only': { on: V03_UP, fails: ['card.well-known-path'], level: 'full' },
  'card-no-cache-headers': { on: V1, fails: ['card.caching'], level: 'partial' },
  'card-varies-no-vary': { on: V03_UP, fails: ['card.vary'], level: 'partial' },
  'card-bad-signature': { setup: 'signed', on: V03_UP, fails: ['card.signatures'], level: 'partial' },
  // v0.3 names no canonical form to sign: a signature that does not verify is advice there (spec data note).
  'card-signature-tampered': { setup: 'signed', on: V03_UP, fails: ['card.signatures.verified'], level: 'full', levelOn: each(V1, 'partial') },
  // gRPC: the GetExtendedAgentCard RPC answers without credentials.
  'extended-card-anonymous': {
    setup: 'extended',
    on: [...V02, ...V03_UP],
    fails: ['card.extended', 'security.extended-card.anonymous'],
    level: 'partial',
  },
  // ------------------------------------------------------------------ tasks
  'send-returns-message': {
    // A message-only agent is permitted from v0.2, but it must still refuse a taskId it does not know.
    fails: ['errors.unknown-task-message'],
    failsOn: { 'legacy JSONRPC': ['lifecycle.send', 'streaming.framing', 'streaming.terminal'] },
    level: 'partial',
    levelOn: { 'legacy JSONRPC': 'non-conformant' },
  },
  // The procedure's per-task timeout (docs/conformance-procedure.md, Timeouts T2, T3): a task and a stream that reach no
  // terminal state within it fail on every target (each run waits out the matrix's 8 s timeout), so the level is
  // below full everywhere. lifecycle.blocking's finding (an advisory: MAY before v1.0, contradictory in v1.0) and the
  // resubscription that meets the same endless task may come with it.
  'task-never-finishes': { fails: ['lifecycle.terminal', 'streaming.terminal'], mayFail: ['lifecycle.blocking', 'streaming.resubscribe'], level: 'minimal' },
  'no-task-id': {
    fails: ['lifecycle.send', 'lifecycle.shape', 'streaming.framing'],
    failsOn: { 'legacy JSONRPC': ['lifecycle.send', 'lifecycle.shape'] },
    level: 'non-conformant',
  },
  // gRPC: the proto's enum cannot carry a state it does not define (the name arrives as TASK_STATE_UNSPECIFIED).
  'bad-initial-state': {
    on: HTTP,
    fails: ['lifecycle.send', 'lifecycle.shape', 'streaming.framing'],
    // Legacy sends block, so the first answer is already final; its gets meet the "pending" of the slow task.
    failsOn: { 'legacy JSONRPC': ['lifecycle.get', 'lifecycle.shape', 'streaming.framing'] },
    mayFail: ['lifecycle.get'],
    level: 'non-conformant',
  },
  'task-id-changes': {
    fails: ['lifecycle.get', 'lifecycle.task-id-stable', 'lifecycle.multi-turn', 'streaming.consistency', 'streaming.resubscribe'],
    failsOn: {
      'legacy JSONRPC': [
        'lifecycle.send',
        'lifecycle.get',
        'lifecycle.task-id-stable',
        'lifecycle.multi-turn',
        'streaming.consistency',
        'streaming.resubscribe',
      ],
      ...each(V1, ['lifecycle.get', 'lifecycle.task-id-stable', 'lifecycle.multi-turn', 'lifecycle.list', 'streaming.consistency', 'streaming.resubscribe']),
    },
    advises: ['lifecycle.cancel'],
    advisesOn: each(V1, ['lifecycle.cancel', 'lifecycle.context']),
    level: 'non-conformant',
  },
  // v0.2/v0.3 only describe the id as unique (MAY-level: an advisory, still a detection); v1.0 §3.4.2 MUST.
  'duplicate-task-ids': { setup: 'peer', on: V02_UP, fails: ['interop.peer.concurrent'], level: 'full', levelOn: each(V1, 'partial') },
  // streaming.disconnect reads its task back at once: while it still runs, it is "gone" too.
  'get-not-found-running': { fails: ['lifecycle.get'], mayFail: ['streaming.disconnect'], level: 'non-conformant' },
  'cancel-ignored': { fails: ['lifecycle.cancel.effective'], level: 'full' },
  // A cancel answered "canceled" after which the task completes breaks "a terminal state is final" (one rule, MUST by the
  // procedure in every generation): both checks that watch the canceled task fail at that strength.
  'cancel-reverts': { fails: ['lifecycle.transitions', 'lifecycle.cancel.effective'], level: 'minimal' },
  'cancel-internal-error': { fails: ['lifecycle.cancel'], level: 'minimal' },
  // "Not found" for a task that get returns is a wrong answer (seen on an independent server: -32000 TASK_NOT_FOUND),
  // never "it finished before the cancel landed".
  'cancel-not-found-running': { fails: ['lifecycle.cancel'], level: 'minimal' },
  'cancel-completed-500': {
    on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC', 'v1.0 GRPC'],
    fails: ['errors.cancel-terminal', 'errors.cancel-twice'],
    failsOn: { 'v1.0 GRPC': ['errors.cancel-terminal', 'errors.cancel-twice', 'errors.grpc-status'] },
    level: 'partial',
  },
  // v1.0 calls cancel idempotent: returning the canceled task again is fine there.
  // gRPC: errors.grpc-status cancels a finished task too.
  'cancel-completed-succeeds': {
    fails: ['errors.cancel-terminal', 'errors.cancel-twice'],
    failsOn: { ...each(V1, ['errors.cancel-terminal']), 'v1.0 GRPC': ['errors.cancel-terminal', 'errors.grpc-status'] },
    level: 'partial',
  },
  'cancel-canceled-wrong-code': { fails: ['errors.cancel-twice'], level: 'partial', levelOn: each(V1, 'full') },
  'no-history': { fails: ['lifecycle.history'], level: 'full', levelOn: { 'legacy JSONRPC': 'partial', ...each(V1, 'partial') } },
  'history-ignores-length': { fails: ['lifecycle.history-length'], level: 'full', levelOn: { 'legacy JSONRPC': 'partial', ...each(V1, 'minimal') } },
  // ProtoJSON reads an empty repeated field as unset: only the "SHOULD be omitted" wording is missed (advisory).
  'history-zero-empty': { on: V1_HTTP, fails: [], advises: ['lifecycle.history-length'], level: 'full' },
  'input-answer-dropped': { fails: ['lifecycle.multi-turn'], level: 'full' },
  'context-replaced': { on: V02_UP, fails: ['lifecycle.context'], level: 'full', levelOn: each(V1, 'minimal') },
  // MAY before v1.0 (a detection); v1.0 contradicts itself on waiting (§3.2.2 vs §3.1.1): an advisory there.
  'blocking-returns-working': { on: V02_UP, fails: ['lifecycle.blocking'], failsOn: each(V1, []), advisesOn: each(V1, ['lifecycle.blocking']), level: 'full' },
  // The all-artifacts MUST of v1.0 §3.2.2 is not contradicted: a failure there (MAY-level advice before v1.0).
  'blocking-answer-no-artifacts': { on: V02_UP, fails: ['lifecycle.blocking'], level: 'full', levelOn: each(V1, 'minimal') },
  // gRPC: a proto3 string is never absent (an unset nextPageToken reads as "", the last page).
  'list-no-next-page-token': { on: V1_HTTP, fails: ['lifecycle.list'], level: 'minimal' },
  'list-includes-artifacts': { on: V1, fails: ['lifecycle.list'], level: 'minimal' },
  'list-ignores-context': { on: V1, fails: ['lifecycle.list'], level: 'minimal' },
  'list-oldest-first': { on: V1, fails: ['lifecycle.list'], level: 'minimal' },
  'push-config-wrong-url': { setup: 'push', fails: ['lifecycle.push-config'], level: 'partial' },
  // Before v1.0 the push config methods are optional, so a delete without effect is only an advisory there.
  // A config that stays after delete keeps receiving the task's updates too.
  'push-config-not-deleted': { setup: 'push', on: V1, fails: ['lifecycle.push-config', 'lifecycle.push-after-delete'], level: 'partial' },
  // Push delivery (webhook inbox): MUST in v1.0; legacy SHOULD (payload) / example (token); v0.2-v0.3 examples only (advisories).
  'push-wrong-shape': { setup: 'push', fails: ['lifecycle.push-delivery'], level: 'partial', levelOn: each([...V02, ...V03], 'full') },
  'push-no-token': { setup: 'push', fails: ['lifecycle.push-auth'], level: 'partial', levelOn: each(PRE_V1, 'full') },
  'push-out-of-order': { setup: 'push', fails: ['lifecycle.push-order'], level: 'full' },
  'push-after-delete': { setup: 'push', on: V02_UP, fails: ['lifecycle.push-after-delete'], level: 'partial', levelOn: each([...V02, ...V03], 'full') },
  // Each check judges the envelopes of its own exchanges (lifecycle.cancel its cancel answer; v1.0: lifecycle.list those of ListTasks).
  'wrong-rpc-id': {
    on: JSONRPC,
    fails: ['lifecycle.shape', 'streaming.framing', 'errors.shape', 'lifecycle.cancel'],
    failsOn: each(V1_JSONRPC, ['lifecycle.shape', 'streaming.framing', 'errors.shape', 'lifecycle.cancel', 'lifecycle.list']),
    level: 'minimal',
  },
  // A `"result": null` beside the error is the envelope's defect (errors.shape), not a successful cancel.
  'result-and-error': {
    on: JSONRPC,
    fails: ['lifecycle.shape', 'errors.shape', 'lifecycle.cancel'],
    failsOn: each(V1_JSONRPC, ['lifecycle.shape', 'errors.shape', 'lifecycle.cancel', 'lifecycle.list']),
    level: 'minimal',
  },
  // Before v1.0 the timestamp format comes from an optional schema format: an advisory.
  // gRPC: google.protobuf.Timestamp carries no text to get wrong.
  'bad-timestamps': {
    on: HTTP,
    fails: [],
    failsOn: each(V1, ['lifecycle.shape', 'streaming.framing']),
    advises: ['lifecycle.shape', 'streaming.framing'],
    advisesOn: each(V1, []),
    level: 'full',
    levelOn: each(V1, 'minimal'),
  },
  'relay-input-refused': { setup: 'peer', fails: ['interop.peer.relay'], level: 'full' },
  // ------------------------------------------------------------------ streaming
  'sse-wrong-content-type': {
    on: HTTP,
    fails: ['streaming.content-type', 'streaming.resubscribe', 'errors.subscribe-terminal'],
    failsOn: each(V1, ['streaming.content-type', 'streaming.resubscribe']),
    level: 'partial',
  },
  'sse-error-body': { on: HTTP, fails: ['streaming.content-type'], level: 'partial' },
  // "The stream ends at its final event" is one rule: SHOULD before v1.0 (the procedure's, Streaming S2), MUST in v1.0.
  'sse-never-ends': {
    fails: ['streaming.closes', 'streaming.resubscribe', 'errors.subscribe-terminal'],
    failsOn: each(V1, ['streaming.terminal', 'streaming.resubscribe']),
    level: 'partial',
  },
  'sse-stall-after-complete': {
    // Each run waits out the stream budget: one target per binding (sse-no-final covers streaming.terminal everywhere).
    on: ['v0.3 JSONRPC', 'v1.0 HTTP+JSON'],
    fails: ['streaming.terminal'],
    // The resubscribe check meets the stall only when its task ends while it listens.
    mayFail: ['streaming.resubscribe'],
    level: 'partial',
    levelOn: { 'legacy JSONRPC': 'full' },
  },
  // A state after the final one is a terminal state that changed: "a terminal state is final", MUST (the procedure's) everywhere.
  'sse-events-after-final': { fails: ['streaming.after-final', 'lifecycle.transitions'], level: 'minimal' },
  // A snapshot after the terminal status is permitted (stream-task-snapshot) only when it is that terminal state.
  'stream-stale-snapshot': { on: V1, fails: ['streaming.after-final', 'lifecycle.transitions'], level: 'minimal' },
  // The procedure asks for a final event in every generation (Streaming S2, SHOULD): legacy too, although v0.1.0 says no more than "typically".
  'sse-no-final': { fails: ['streaming.terminal'], level: 'partial' },
  'sse-error-event': { on: V02_UP, fails: ['streaming.terminal'], level: 'partial' },
  'sse-first-not-task': { on: V1, fails: ['streaming.first-event', 'streaming.resubscribe'], level: 'partial' },
  'sse-bare-payload': { on: JSONRPC, fails: ['streaming.framing'], level: 'partial' },
  'sse-multiline-no-prefix': {
    on: HTTP,
    fails: ['streaming.framing', 'streaming.terminal', 'errors.subscribe-terminal'],
    failsOn: each(V1, ['streaming.framing', 'streaming.terminal', 'streaming.resubscribe']),
    level: 'partial',
  },
  // v0.1.0 §7.2.2/§7.2.3: every event's id MUST match the TaskSendParams.id (not merely agree with each other).
  'legacy-stream-own-id': { on: LEGACY, fails: ['streaming.consistency'], level: 'partial' },
  // Not SSE (data is not JSON): judged once by streaming.framing; the stream is still read to its end.
  'sse-record-separator': { on: HTTP, fails: ['streaming.framing'], level: 'partial' },
  'artifact-append-without-start': { fails: ['streaming.artifacts'], level: 'full' },
  'sse-no-resubscribe': {
    fails: ['streaming.resubscribe'],
    failsOn: each(V1, ['streaming.resubscribe', 'errors.subscribe-terminal']),
    level: 'full',
    levelOn: each(V1, 'partial'),
  },
  'subscribe-terminal-replays': { on: V1, fails: ['errors.subscribe-terminal'], level: 'partial' },
  // streaming.disconnect leaves a task that runs long enough for the close to meet it running (chosen by measured durations).
  'crash-after-disconnect': { fails: ['streaming.disconnect'], level: 'partial' },
  'streaming-undeclared-served': {
    setup: 'no-streaming',
    // Before v1.0 nothing forbids serving an undeclared stream: the finding is advice (legacy: MAY-level check).
    fails: ['errors.streaming-unsupported'],
    failsOn: each(V0X, []),
    advisesOn: each(V0X, ['errors.streaming-unsupported']),
    level: 'full',
    levelOn: each(V1, 'partial'),
  },
  'streaming-undeclared-wrong-code': { setup: 'no-streaming', on: V02_UP, fails: ['errors.streaming-unsupported'], level: 'partial' },
  // ------------------------------------------------------------------ errors
  'unknown-method-wrong-code': { on: JSONRPC, fails: ['errors.unknown-method'], level: 'partial' },
  'unknown-route-spa-fallback': { on: REST, fails: ['errors.unknown-method'], level: 'partial' },
  'invalid-json-500': { on: HTTP, fails: ['errors.invalid-json'], level: 'partial' },
  'invalid-request-wrong-code': { on: JSONRPC, fails: ['errors.invalid-request'], level: 'partial' },
  'invalid-params-wrong-code': { on: HTTP, fails: ['errors.invalid-params'], level: 'partial' },
  // Seen on an independent server: tasks/get {} answered -32001 "Task not found: undefined".
  'id-missing-not-found': { on: JSONRPC, fails: ['errors.invalid-params'], level: 'partial' },
  'task-not-found-wrong-code': {
    fails: ['errors.task-not-found', 'errors.unknown-task-message'],
    failsOn: { 'legacy JSONRPC': ['errors.task-not-found'], 'v1.0 GRPC': ['errors.task-not-found', 'errors.unknown-task-message', 'errors.grpc-status'] },
    level: 'partial',
  },
  'task-not-found-500': {
    // The notification probe is a get of an unknown task too: it crashes as well (JSON-RPC only).
    fails: ['errors.task-not-found', 'errors.unknown-task-message', 'errors.notification'],
    failsOn: {
      'legacy JSONRPC': ['errors.task-not-found', 'errors.notification'],
      ...each(REST, ['errors.task-not-found', 'errors.unknown-task-message']),
      'v1.0 GRPC': ['errors.task-not-found', 'errors.unknown-task-message', 'errors.grpc-status'],
    },
    level: 'partial',
  },
  'unknown-task-created': { on: V02_UP, fails: ['errors.unknown-task-message'], level: 'partial' },
  'context-mismatch-accepted': { on: V1, fails: ['errors.context-mismatch'], level: 'partial' },
  'message-to-terminal-accepted': {
    on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC', 'v1.0 GRPC'],
    fails: ['errors.message-to-terminal'],
    level: 'full',
    levelOn: each(V1, 'partial'),
  },
  'message-to-terminal-appends': { fails: ['errors.message-to-terminal'], level: 'full', levelOn: each(V1, 'partial') },
  'push-wrong-code': { fails: ['errors.push-not-supported'], level: 'partial' },
  'version-lenient': { on: V1, fails: ['errors.version-unsupported', 'errors.version-missing'], level: 'partial' },
  'notification-answered': { on: JSONRPC, fails: ['errors.notification'], level: 'full' },
  // Only a refusal with id null passes (the A2A schemas require an id): any other id answers the notification.
  'notification-refused-with-id': { on: JSONRPC, fails: ['errors.notification'], level: 'full' },
  'error-data-no-errorinfo': { on: V1_JSONRPC, fails: ['errors.details'], level: 'partial' },
  'error-data-untyped': { on: V1_JSONRPC, fails: ['errors.shape', 'errors.details'], level: 'partial' },
  'rest-error-not-status': { on: V1_REST, fails: ['errors.shape'], level: 'partial' },
  'rest-error-html': { on: REST, fails: ['errors.shape'], level: 'partial' },
  // gRPC errors without the §5.4 status and the §10.6 ErrorInfo (the test agent's gRPC front answers INTERNAL, no details):
  // every check that expects a named error fails; errors.context-mismatch asks only for a refusal.
  'grpc-bare-errors': {
    on: GRPC,
    fails: [
      'errors.grpc-status',
      'errors.subscribe-terminal',
      'errors.task-not-found',
      'errors.unknown-task-message',
      'errors.cancel-terminal',
      'errors.cancel-twice',
      'errors.message-to-terminal',
      'errors.push-not-supported',
      'errors.version-unsupported',
      'errors.version-missing',
    ],
    level: 'partial',
  },
  // ------------------------------------------------------------------ auth, interop
  'auth-not-enforced': { setup: 'auth', fails: ['auth.required'], level: 'partial' },
  // Not on gRPC: a challenge is the WWW-Authenticate header of an HTTP 401 (auth.challenge does not apply to gRPC).
  'auth-no-www-authenticate': { setup: 'auth', on: HTTP, fails: ['auth.challenge'], level: 'partial' },
  // gRPC: the GetTask of errors.grpc-status meets the refusal (UNAUTHENTICATED, not NOT_FOUND).
  'auth-inconsistent': { setup: 'auth', fails: ['auth.accepted'], failsOn: { 'v1.0 GRPC': ['auth.accepted', 'errors.grpc-status'] }, level: 'partial' },
  'no-cors': { fails: CORS, failsOn: { 'v1.0 GRPC': ['interop.cors.card'] }, level: 'full' },
  // Extensions (v1.0 only: no earlier release says how a required or unknown extension is answered).
  'extension-required-not-enforced': { setup: 'extensions', on: V1, fails: ['errors.extension-required'], level: 'partial' },
  'extension-unknown-refused': { setup: 'extensions', on: V1, fails: ['interop.extensions'], level: 'partial' },
  'interface-broken': { setup: 'interfaces', on: V03_UP, fails: ['interop.bindings'], level: 'partial' },
  // ------------------------------------------------------------------ security review (informational: MAY, never the level)
  'card-internal-url': { fails: ['security.card.urls'], level: 'full' },
  'card-hidden-text': { fails: ['security.card.hidden-text'], level: 'full' },
  'card-llm-instructions': { fails: ['security.card.llm-instructions'], level: 'full' },
  'card-secret': { fails: ['security.card.secrets'], level: 'full' },
  'cors-credentials': { fails: ['security.cors.credentials'], level: 'full' },
  // gRPC: no HTTP endpoint to redirect (redirect-off-host); the card is still fetched over HTTP.
  'redirect-off-host': { on: HTTP, fails: ['security.redirects'], level: 'full' },
  'card-redirect-other-host': { on: GRPC, fails: ['security.redirects'], level: 'full' },
};

const PERMITTED: Record<PermittedName, PermittedExpectation | PermittedExpectation[]> = {
  // ------------------------------------------------------------------ card
  'grpc-interface': [
    // Not on gRPC: there the declared gRPC interface is called (interop.bindings), and nothing answers at its port.
    { on: http(V02_UP), passes: ['card.urls.endpoint', 'card.protocol.coherence'] },
    // interop.bindings calls the other HTTP interfaces and leaves gRPC alone.
    { setup: 'interfaces', on: http(V03_UP), passes: ['interop.bindings', 'card.urls.endpoint'] },
  ],
  'card-protected': { setup: 'auth', passes: ['card.discovery', 'card.json', 'lifecycle.send'], advises: ['card.public', 'interop.cors.card'] },
  'card-protected-spa': {
    setup: 'auth',
    on: JSONRPC,
    passes: ['card.discovery', 'card.json', 'auth.required', 'auth.accepted'],
    advises: ['card.public', 'interop.cors.card'],
  },
  'card-extra-fields': [
    { passes: ['card.capabilities.shape', 'card.required-fields', 'card.skills', 'card.urls.other'], advises: ['card.strict-lint'] },
    // The peer's card carries the vendor fields: still discoverable and usable.
    { setup: 'peer', who: 'peer', passes: ['interop.peer.card', 'interop.peer.common'] },
  ],
  'card-empty-strings': { on: V02_UP, passes: ['card.modes', 'lifecycle.send'], advises: ['card.required-fields', 'card.skills'] },
  'card-legacy-nulls': { on: LEGACY, passes: ['card.required-fields', 'card.skills', 'card.modes', 'card.strict-lint', 'card.well-known-path'] },
  'card-media-ranges': { on: V02_UP, passes: ['card.modes', 'card.modes.media-types', 'card.strict-lint', 'lifecycle.send'] },
  'card-skill-modes-empty': { on: V1, passes: ['card.modes', 'lifecycle.send'] },
  'card-content-type-charset': { passes: ['card.content-type', 'card.json', 'card.public'] },
  // Legacy is left out: a legacy card without authentication served at agent-card.json is taken for a v0.2.0-0.2.4 card.
  'card-both-paths': { on: V02_UP, passes: ['card.well-known-path', 'card.discovery', 'card.public'] },
  'card-dual-v03-v1': {
    on: V1,
    passes: ['card.required-fields', 'card.urls.endpoint', 'errors.version-missing'],
    passesOn: { 'v1.0 GRPC': ['card.required-fields', 'card.urls.endpoint'] },
    advises: ['card.protocol.coherence', 'card.strict-lint'],
    // gRPC: the 0.3 fields name the JSON-RPC URL; a header-less call to the 1.0-only gRPC interface is taken for 0.3 there
    // and meets UNIMPLEMENTED instead of VersionNotSupported (only the error differs: an advisory).
    advisesOn: { 'v1.0 GRPC': ['card.protocol.coherence', 'card.strict-lint', 'errors.version-missing'] },
  },
  'card-shared-url-transports': { on: V0X, passes: ['card.urls.endpoint'], advises: ['card.protocol.coherence'] },
  // §5.6.1 (REQUIRED) and the schema (optional, default JSONRPC) contradict each other: an advisory, the agent still works.
  'card-v03-no-preferred-transport': { on: ['v0.3 JSONRPC'], passes: ['card.urls.endpoint', 'lifecycle.send'], advises: ['card.protocol.coherence'] },
  'card-custom-binding-uri': { on: V1, passes: ['card.protocol.conventions', 'card.urls.endpoint', 'card.protocol.coherence'] },
  'card-varies-by-version': { on: V03_UP, passes: ['card.vary'] },
  'card-revalidate': { on: V1, passes: ['card.caching', 'card.vary'] },
  'card-signed-per-request': { setup: 'signed', on: V03_UP, passes: ['card.vary', 'card.signatures', 'card.signatures.verified'] },
  'card-alg-unprotected': { setup: 'signed', on: V03, passes: ['card.signatures', 'card.signatures.verified'] },
  'extension-activated-not-listed': { setup: 'extensions', on: V1, passes: ['errors.extension-required', 'interop.extensions'] },
  // Unverifiable signatures (no key for the kid, jku 404) are skipped with the reason, never the agent's failure.
  'card-signature-unknown-kid': { setup: 'signed', on: V03_UP, passes: ['card.signatures'] },
  'card-signature-jku-404': { setup: 'signed', on: V03_UP, passes: ['card.signatures'] },
  'card-oauth-flows': {
    setup: 'auth',
    on: V02_UP,
    passes: ['card.security.schemes', 'card.security.references', 'card.urls.oauth', 'auth.accepted'],
  },
  'auth-optional': {
    setup: 'auth',
    on: PRE_V1,
    passes: ['card.security.schemes', 'card.security.references', 'card.strict-lint', 'auth.accepted'],
    passesOn: { 'legacy JSONRPC': ['card.security.schemes', 'card.strict-lint', 'auth.accepted'] },
  },
  'extended-not-configured': { setup: 'extended', on: V03_UP, passes: ['card.extended', 'security.extended-card.anonymous'] },
  'extended-v02-rpc': { setup: 'extended', on: V02, passes: ['card.extended', 'security.extended-card.anonymous'] },
  // ------------------------------------------------------------------ tasks
  'image-only-skill': { passes: ['lifecycle.send', 'lifecycle.get'] },
  'video-only-skill': { on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'], passes: ['lifecycle.send', 'lifecycle.terminal'] },
  'content-type-validation-error': { on: [...V03_REST, ...V1], passes: ['lifecycle.send'] },
  'task-rejected-initial': { on: V02_UP, passes: ['lifecycle.send', 'lifecycle.get', 'lifecycle.terminal', 'lifecycle.transitions'] },
  'strict-task-ids': {
    passes: ['errors.task-not-found', 'errors.unknown-task-message'],
    passesOn: { 'legacy JSONRPC': ['errors.task-not-found'], 'v1.0 GRPC': ['errors.task-not-found', 'errors.unknown-task-message', 'errors.grpc-status'] },
  },
  // Legacy is left out: legacy clients choose the task ids.
  'prefixed-task-ids': {
    on: V02_UP,
    passes: ['errors.task-not-found', 'errors.unknown-task-message', 'lifecycle.task-id-stable', 'lifecycle.context', 'streaming.consistency'],
    passesOn: {
      'v1.0 GRPC': [
        'errors.task-not-found',
        'errors.unknown-task-message',
        'errors.grpc-status',
        'lifecycle.task-id-stable',
        'lifecycle.context',
        'streaming.consistency',
      ],
    },
  },
  'sequential-task-ids': { setup: 'peer', who: 'both', passes: ['interop.peer.concurrent', 'interop.peer.relay', 'lifecycle.task-id-stable'] },
  'skip-working': {
    passes: ['lifecycle.transitions', 'lifecycle.terminal', 'lifecycle.blocking'],
    passesOn: { 'legacy JSONRPC': ['lifecycle.transitions', 'lifecycle.terminal'] },
  },
  'back-to-submitted': { on: ['v0.2 JSONRPC', 'v1.0 HTTP+JSON'], passes: ['lifecycle.transitions'] },
  'asks-again': { on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'], passes: ['lifecycle.multi-turn'] },
  'answer-message-reply': { on: V02_UP, passes: ['lifecycle.multi-turn'] },
  'cancel-async': {
    passes: ['lifecycle.cancel', 'lifecycle.cancel.effective', 'errors.cancel-twice'],
  },
  'history-fewer': { passes: ['lifecycle.history', 'lifecycle.history-length'] },
  'timestamps-offset': { on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'], passes: ['lifecycle.shape'] },
  'timestamps-zoneless': { on: V0X, passes: ['lifecycle.shape', 'streaming.framing'] },
  'timestamps-lowercase': { on: LEGACY, passes: ['lifecycle.shape', 'streaming.framing'] },
  // v1.0 does not require Task.contextId: the context is read from the task's messages.
  'v1-no-task-context': { on: V1, passes: ['lifecycle.shape', 'streaming.framing', 'lifecycle.context'] },
  'extra-fields': [
    { passes: ['lifecycle.shape', 'streaming.framing'] },
    // Metadata on the gRPC answers only: the two bindings still answer alike.
    { setup: 'interfaces', on: GRPC, passes: ['interop.bindings'] },
  ],
  'rate-limit-once': { on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'], passes: ['lifecycle.send', 'lifecycle.get', 'lifecycle.cancel'] },
  'list-small-pages': { on: V1, passes: ['lifecycle.list'] },
  'context-rejected': { on: V1, passes: ['lifecycle.context'] },
  'push-token-masked': { setup: 'push', on: ['legacy JSONRPC', 'v0.3 JSONRPC', 'v1.0 JSONRPC'], passes: ['lifecycle.push-config'] },
  'push-delete-204': { setup: 'push', on: REST, passes: ['lifecycle.push-config'] },
  'push-second-delete-not-found': { setup: 'push', on: V02_UP, passes: ['lifecycle.push-config'] },
  'push-retries': {
    setup: 'push',
    passes: ['lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-order', 'lifecycle.push-after-delete'],
    passesOn: { 'legacy JSONRPC': ['lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-order'] },
  },
  // ------------------------------------------------------------------ streaming
  // Line endings and SSE fields are read by one parser whatever the generation: a few targets of each binding.
  'sse-crlf': {
    on: ['v0.2 JSONRPC', 'v0.3 JSONRPC', 'v1.0 HTTP+JSON'],
    passes: ['streaming.framing', 'streaming.terminal', 'streaming.after-final', 'streaming.resubscribe'],
  },
  'sse-cr': {
    on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'],
    passes: ['streaming.framing', 'streaming.terminal', 'streaming.after-final', 'streaming.resubscribe'],
  },
  'sse-bom': { on: ['v0.2 JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC'], passes: ['streaming.framing', 'streaming.terminal', 'streaming.after-final'] },
  'sse-multiline-data': { passes: ['streaming.framing', 'streaming.artifacts', 'streaming.consistency'] },
  'sse-fields': {
    passes: ['streaming.framing', 'streaming.first-event', 'streaming.resubscribe', 'streaming.closes'],
    passesOn: each(V1, ['streaming.framing', 'streaming.first-event', 'streaming.resubscribe']),
  },
  'sse-unknown-fields': { on: ['v0.2 JSONRPC', 'v1.0 HTTP+JSON'], passes: ['streaming.framing', 'streaming.after-final'] },
  gzip: { passes: ['card.json', 'lifecycle.get', 'streaming.content-type', 'streaming.framing'], passesOn: { 'v1.0 GRPC': ['card.json', 'lifecycle.get'] } },
  'stream-open-at-auth-required': { on: V1, passes: ['streaming.terminal', 'lifecycle.terminal'] },
  'stream-task-snapshot': { on: V1, passes: ['streaming.after-final', 'streaming.terminal'] },
  'stream-ends-with-task': { on: V0X, passes: ['streaming.terminal', 'streaming.closes'] },
  'stream-first-terminal-status': { on: PRE_V1, passes: ['streaming.first-event', 'streaming.terminal', 'streaming.closes'] },
  'artifact-in-task': { on: V02_UP, passes: ['streaming.artifacts', 'streaming.first-event'] },
  'disconnect-cancels': { passes: ['streaming.disconnect'] },
  'cors-minimal': { passes: [...CORS, 'security.cors.credentials'], passesOn: { 'v1.0 GRPC': ['interop.cors.card', 'security.cors.credentials'] } },
  'rest-url-v1': [
    { on: V03_REST, passes: ['card.urls.endpoint', 'lifecycle.send'] },
    { setup: 'interfaces', on: ['v0.3 JSONRPC'], passes: ['interop.bindings'] },
  ],
  'endpoint-path': { on: HTTP, passes: ['card.urls.endpoint', 'lifecycle.send', 'errors.unknown-method'] },
  // ------------------------------------------------------------------ errors and auth
  'jsonrpc-error-http-status': [
    {
      on: JSONRPC,
      passes: [
        'errors.unknown-method',
        'errors.invalid-json',
        'errors.invalid-request',
        'errors.invalid-params',
        'errors.task-not-found',
        'errors.shape',
        'errors.cancel-terminal',
        'errors.cancel-twice',
        'errors.message-to-terminal',
        'errors.push-not-supported',
      ],
      passesOn: {
        'v0.2 JSONRPC': [
          'errors.unknown-method',
          'errors.invalid-json',
          'errors.invalid-request',
          'errors.invalid-params',
          'errors.task-not-found',
          'errors.shape',
          'errors.cancel-terminal',
          'errors.cancel-twice',
          'errors.message-to-terminal',
          'errors.push-not-supported',
          'errors.unknown-task-message',
        ],
        'v0.3 JSONRPC': [
          'errors.unknown-method',
          'errors.invalid-json',
          'errors.invalid-request',
          'errors.invalid-params',
          'errors.task-not-found',
          'errors.shape',
          'errors.cancel-terminal',
          'errors.cancel-twice',
          'errors.message-to-terminal',
          'errors.push-not-supported',
          'errors.unknown-task-message',
        ],
        'v1.0 JSONRPC': [
          'errors.unknown-method',
          'errors.invalid-json',
          'errors.invalid-request',
          'errors.invalid-params',
          'errors.task-not-found',
          'errors.shape',
          'errors.cancel-terminal',
          'errors.cancel-twice',
          'errors.message-to-terminal',
          'errors.push-not-supported',
          'errors.unknown-task-message',
          'errors.details',
          'errors.version-unsupported',
        ],
      },
    },
  ],
  'notification-invalid-request': { on: JSONRPC, passes: ['errors.notification'] },
  'notification-202': { on: JSONRPC, passes: ['errors.notification'] },
  'duplicate-cancel-not-found': { on: V1, passes: ['errors.cancel-twice'] },
  'duplicate-cancel-idempotent': { on: V1, passes: ['errors.cancel-twice'] },
  'rest-json-content-type': { on: V1_REST, passes: ['lifecycle.send', 'errors.shape', 'errors.message-to-terminal'] },
  'rest-409-not-cancelable': { on: REST, passes: ['errors.cancel-terminal', 'errors.cancel-twice'] },
  'rest-501-unsupported': { on: V03_REST, passes: ['errors.push-not-supported', 'errors.message-to-terminal'] },
  'rest-message-error-body': { on: V03_REST, passes: ['errors.shape', 'errors.task-not-found', 'errors.cancel-terminal'] },
  // gRPC: the v1.0.0 statuses (UNIMPLEMENTED) with their reasons, and richer status details, are still the mapped errors.
  'grpc-v100-statuses': [
    {
      on: GRPC,
      passes: ['errors.message-to-terminal', 'errors.version-unsupported', 'errors.version-missing', 'errors.push-not-supported', 'errors.subscribe-terminal'],
    },
    { setup: 'no-streaming', on: GRPC, passes: ['errors.streaming-unsupported'] },
  ],
  'grpc-error-details': {
    on: GRPC,
    passes: [
      'errors.grpc-status',
      'errors.task-not-found',
      'errors.unknown-task-message',
      'errors.cancel-terminal',
      'errors.cancel-twice',
      'errors.message-to-terminal',
      'errors.context-mismatch',
      'errors.push-not-supported',
      'errors.version-unsupported',
      'errors.version-missing',
    ],
  },
  'rest-status-no-status-field': { on: V1_REST, passes: ['errors.shape', 'errors.invalid-json', 'errors.invalid-params'] },
  'unknown-route-400': { on: REST, passes: ['errors.unknown-method', 'errors.shape'] },
  'validation-422': { on: V03_REST, passes: ['errors.invalid-json', 'errors.invalid-params'] },
  'push-url-validation': { passes: ['errors.push-not-supported'] },
  'version-compat-03': { on: V1_HTTP, passes: ['errors.version-missing', 'interop.bindings'] },
  'version-problem-json': { on: V1_REST, passes: ['errors.version-unsupported', 'errors.version-missing'] },
  'subscribe-terminal-error': { on: PRE_V1, passes: ['errors.subscribe-terminal'] },
  'sse-error-first-event': [
    {
      on: V1,
      // The refusal of a subscription to a finished task may come as the first SSE event: judged like a JSON refusal.
      passes: ['errors.subscribe-terminal'],
    },
    { setup: 'no-streaming', on: V1_HTTP, passes: ['errors.streaming-unsupported'] },
  ],
  'no-streaming-method-not-found': { setup: 'no-streaming', on: PRE_V1, passes: ['errors.streaming-unsupported'] },
  'context-mismatch-not-found': { on: V1_HTTP, passes: ['errors.context-mismatch'] },
  'auth-jsonrpc-error': { setup: 'auth', on: V1_JSONRPC, passes: ['auth.required', 'auth.accepted'] },
  // gRPC: PERMISSION_DENIED (v1.0.1 §3.3.2).
  'auth-403': { setup: 'auth', on: ['legacy JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 HTTP+JSON', 'v1.0 GRPC'], passes: ['auth.required', 'auth.accepted'] },
  'auth-multi-challenge': { setup: 'auth', on: HTTP, passes: ['auth.challenge', 'auth.required'] },
  'card-rtl-text': { passes: ['security.card.urls', 'security.card.hidden-text', 'security.card.llm-instructions', 'security.card.secrets'] },
  'redirect-same-host': { passes: ['security.redirects'] },
};

// ------------------------------------------------------------------------------------------ the runs

const list = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const outcome = (r: Report): Outcome => r.conformanceLevel ?? 'not-assessed';
const byId = (r: Report) => new Map(reportResults(r).map((x) => [x.id, x]));
/** Results that are not passing for the agent's sake: failures and advisories (errors and skips aside). */
const flagged = (r: Report) => reportResults(r).filter((x) => x.status === 'fail' || x.status === 'advisory');
const describeResult = (x: CheckResult | undefined) => (x ? `${x.status}${x.skipKind ? `/${x.skipKind}` : ''}: ${x.message.slice(0, 200)}` : 'missing');
/** A detection: a failure, or an advisory where the generation backs the check with MAY only. */
const detects = (x: CheckResult) => x.status === (x.level === 'MAY' ? 'advisory' : 'fail');

const cleanCases: CaseSpec[] = RUN_TARGETS.flatMap((target) => SETUPS.filter((s) => setupApplies(s, target)).map((setup) => ({ target, setup })));

interface DefectCase {
  defect: DefectName;
  e: DefectExpectation;
  c: CaseSpec;
}
const defectCases: DefectCase[] = (Object.entries(DEFECTS) as [DefectName, DefectExpectation | DefectExpectation[]][])
  .flatMap(([defect, es]) =>
    list(es).flatMap((e) =>
      (e.on ?? ALL).map((target): DefectCase => ({
        defect,
        e,
        c: { target, setup: e.peer ? 'peer' : (e.setup ?? 'plain'), ...(e.peer ? { peerDefects: [defect] } : { defects: [defect] }) },
      })),
    ),
  )
  .filter((x) => runs(x.c));

interface PermittedCase {
  permitted: PermittedName;
  e: PermittedExpectation;
  c: CaseSpec;
}
const permittedCases: PermittedCase[] = (Object.entries(PERMITTED) as [PermittedName, PermittedExpectation | PermittedExpectation[]][])
  .flatMap(([permitted, es]) =>
    list(es).flatMap((e) =>
      (e.on ?? ALL).map((target): PermittedCase => {
        const who = e.who ?? 'agent';
        return {
          permitted,
          e,
          c: {
            target,
            setup: e.setup ?? 'plain',
            ...(who !== 'peer' ? { permitted: [permitted] } : {}),
            ...(who !== 'agent' ? { peerPermitted: [permitted] } : {}),
          },
        };
      }),
    ),
  )
  .filter((x) => runs(x.c));

const label = (c: CaseSpec) => `${c.target}${c.setup === 'plain' ? '' : ` (${c.setup}${c.peerDefects || c.peerPermitted ? ', on the peer' : ''})`}`;

const reports = new Map<string, Report>();
beforeAll(async () => {
  const all = [...cleanCases, ...defectCases.map((x) => x.c), ...permittedCases.map((x) => x.c)];
  // The agents and the suite share this process: the runs mostly wait on timers, so many run at once (more than 16
  // starve the event loop on a busy 2-core machine, and timing-sensitive checks start to miss their windows).
  await pool(all, 16, async (c) => {
    reports.set(caseKey(c), await runCase(c));
  });
  // About 8 minutes on a quiet 2-core machine (seven targets); a machine shared with other jobs needs far longer.
}, 1_800_000);

const reportOf = (c: CaseSpec) => {
  const r = reports.get(caseKey(c));
  if (!r) throw new Error(`no run for ${caseKey(c)}`);
  return r;
};

describe('the clean agent', () => {
  it.each(cleanCases.map((c) => [`${c.target} (${c.setup})`, c] as const))('%s: full, nothing flagged, result set pinned', async (_name, c) => {
    const r = reportOf(c);
    const bad = flagged(r).map((x) => `${x.id}: ${describeResult(x)}`);
    expect(bad).toEqual([]);
    expect(
      reportResults(r)
        .filter((x) => x.status === 'error')
        .map((x) => `${x.id}: ${x.message}`),
    ).toEqual([]);
    expect(outcome(r)).toBe('full');
    expect(r.protocol.generation).toBe(c.target.split(' ')[0]);
    const results = Object.fromEntries(reportResults(r).map((x) => [x.id, `${x.status}${x.skipKind ? `/${x.skipKind}` : ''} ${x.level} ${x.tier}`]));
    // Outside CI vitest writes a missing file snapshot and passes, which would pin whatever a regression produced:
    // only `vitest -u` may create one (matrix-pins.test.ts also checks the set of files without running the matrix).
    const pinned = `./__matrix__/${pinnedMatrixFile(c)}`;
    if (!updatingSnapshots()) expect(existsSync(resolve(__dirname, pinned)), `${pinned} is missing: create it with vitest -u and read it`).toBe(true);
    await expect(`${JSON.stringify(results, null, 1)}\n`).toMatchFileSnapshot(pinned);
  });
  it.runIf(RUN_TARGETS.includes('v1.0 JSONRPC'))('never leaks the credentials it was given', () => {
    const r = reportOf({ target: 'v1.0 JSONRPC', setup: 'auth' });
    expect(JSON.stringify(r)).not.toContain(MATRIX_SECRET);
    expect(byId(r).get('auth.accepted')?.status).toBe('pass');
  });
});

describe('each defect makes exactly its checks fail, with the expected level', () => {
  it('every defect of the test agent has an expectation', () => {
    expect(Object.keys(DEFECTS).sort()).toEqual([...DEFECT_NAMES].sort());
  });
  it.each(defectCases.map((x) => [x.defect, label(x.c), x] as const))('%s on %s', (_defect, _target, { e, c }) => {
    const r = reportOf(c);
    const t = c.target;
    const fails = [...(e.failsOn?.[t] ?? e.fails)];
    const advises = [...(e.advisesOn?.[t] ?? e.advises ?? [])];
    const expected = [...fails, ...advises].sort();
    const got = flagged(r)
      .map((x) => x.id)
      .filter((id) => expected.includes(id) || !e.mayFail?.includes(id))
      .sort();
    const results = byId(r);
    const detail = [...new Set([...expected, ...got])]
      .filter((id) => expected.includes(id) !== got.includes(id))
      .map((id) => `${id}: ${describeResult(results.get(id))}`)
      .join('\n');
    expect(got, detail).toEqual(expected);
    // A defect is detected by a failure (an advisory where the generation says only MAY), never by an error.
    for (const id of fails) {
      const x = results.get(id)!;
      expect(detects(x), `${id}: ${describeResult(x)}`).toBe(true);
      expect(x.recommendation, id).toBeTruthy();
      expect(x.requirement?.sentences.length, `${id} names the sentences it enforces`).toBeGreaterThan(0);
    }
    // A weaker finding of a check the generation backs with MUST/SHOULD: an advisory, not a detection.
    for (const id of advises) {
      const x = results.get(id)!;
      expect(x.status, `${id}: ${describeResult(x)}`).toBe('advisory');
      expect(x.level, `${id} is MAY-level here: list it under fails`).not.toBe('MAY');
    }
    expect(outcome(r), r.levelReason).toBe(e.levelOn?.[t] ?? e.level);
  });
});

describe('each permitted behaviour leaves the agent as clean as the plain agent', () => {
  it('every permitted behaviour of the test agent has an expectation', () => {
    expect(Object.keys(PERMITTED).sort()).toEqual([...PERMITTED_NAMES].sort());
  });
  it.each(permittedCases.map((x) => [x.permitted, label(x.c), x] as const))('%s on %s', (_permitted, _target, { e, c }) => {
    const r = reportOf(c);
    const t = c.target;
    const clean = reportOf({ target: t, setup: c.setup });
    const cleanResults = byId(clean);
    const bugs = e.checkBugs ?? [];
    const isNew = (x: CheckResult) => cleanResults.get(x.id)?.status !== x.status;
    const newFails = flagged(r).filter((x) => x.status === 'fail' && isNew(x) && !bugs.includes(x.id));
    expect(newFails.map((x) => `${x.id}: ${describeResult(x)}`)).toEqual([]);
    const newAdvisories = flagged(r).filter((x) => x.status === 'advisory' && isNew(x) && !bugs.includes(x.id));
    expect(newAdvisories.map((x) => x.id).sort()).toEqual([...(e.advisesOn?.[t] ?? e.advises ?? [])].sort());
    const results = byId(r);
    const shown = bugs.filter((id) => results.get(id)?.status !== cleanResults.get(id)?.status);
    if (!e.racy) expect(shown, 'a CHECK BUG is fixed: drop its marker').toEqual(bugs);
    expect(outcome(r), r.levelReason).toBe(shown.length ? (e.level ?? outcome(clean)) : outcome(clean));
    for (const id of e.passesOn?.[t] ?? e.passes) expect(describeResult(results.get(id)), id).toMatch(/^pass/);
  });
});

describe('coverage: every check can fail and can pass a permitted variant, wherever it applies', () => {
  /** (check, target) pairs where some clean setup judges the check (it is not "not applicable" everywhere). */
  const applicable = () => {
    const pairs = new Set<string>();
    for (const c of cleanCases)
      for (const x of reportResults(reportOf(c))) if (!(x.status === 'skip' && x.skipKind === 'not-applicable')) pairs.add(`${x.id} @ ${c.target}`);
    return pairs;
  };
  const exempt = new Set(EXEMPT.flatMap((x) => x.on.filter((t) => RUN_TARGETS.includes(t)).map((t) => `${x.check} @ ${t}`)));

  it.runIf(RUN_TARGETS.length === TARGETS.length)('every check applies somewhere', () => {
    const seen = new Set([...applicable()].map((p) => p.split(' @ ')[0]));
    // OAuth token-endpoint checks: the test agent has no token endpoint; they are proven passing against a real
    // issuer (oauth2-mock-server) in src/engine/auth/oauth.test.ts and failing on each named defect of a token or
    // discovery answer in src/engine/checks/auth-oauth.test.ts.
    const elsewhere = ['auth.oauth-token', 'auth.oauth-discovery'];
    expect(CHECK_CATALOG.map((c) => c.id).filter((id) => !seen.has(id) && !elsewhere.includes(id))).toEqual([]);
  });

  it('every exemption names a check that applies there and that no defect makes fail', () => {
    const app = applicable();
    expect([...exempt].filter((p) => !app.has(p))).toEqual([]);
  });

  it('has a defect that makes each check fail on each target where it applies', () => {
    const caught = new Set<string>();
    for (const { e, c } of defectCases) {
      const expected = e.failsOn?.[c.target] ?? e.fails;
      for (const x of reportResults(reportOf(c))) {
        if (expected.includes(x.id) && !e.checkBugs?.includes(x.id) && detects(x)) caught.add(`${x.id} @ ${c.target}`);
      }
    }
    expect(
      [...caught].filter((p) => exempt.has(p)),
      'an exempt pair is caught after all: drop the exemption',
    ).toEqual([]);
    expect([...applicable()].filter((p) => !caught.has(p) && !exempt.has(p)).sort()).toEqual([]);
  });

  it('has a permitted behaviour that leaves each check passing on each target where it applies', () => {
    const proven = new Set<string>();
    for (const { e, c } of permittedCases) {
      const results = byId(reportOf(c));
      for (const id of e.passesOn?.[c.target] ?? e.passes) if (results.get(id)?.status === 'pass') proven.add(`${id} @ ${c.target}`);
    }
    expect([...applicable()].filter((p) => !proven.has(p)).sort()).toEqual([]);
  });
});
