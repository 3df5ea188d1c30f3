/**
 * The defect matrix and its mirror, the permitted-behaviour matrix, run against the project's test agent on every
 * generation and binding (legacy, v0.2, v0.3, v1.0; JSON-RPC and HTTP+JSON):
 * - the clean agent's complete result set, per target and setup, is pinned (snapshot files) and its level is full;
 * - each defect makes exactly its checks fail (an `error` never counts as a detection), with the expected level;
 * - each permitted behaviour leaves the agent exactly as clean as the plain agent (no failure it does not have,
 *   the same level) and makes the checks it exercises pass;
 * - every check has, on every target where it applies, at least one defect that makes it fail (an advisory for
 *   checks the generation backs only with MAY) and one permitted behaviour that leaves it passing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from './index';
import { reportResults } from '../report/build';
import type { CheckResult } from '../model/check';
import type { ConformanceLevel, Report } from '../model/report';
import { DEFECT_NAMES, type DefectName } from '../../testing/defect-agent/defects';
import { PERMITTED_NAMES, type PermittedName } from '../../testing/defect-agent/permitted';
import {
  caseKey,
  JSONRPC_TARGETS,
  KIND_TARGETS,
  MATRIX_SECRET,
  pool,
  REST_TARGETS,
  runCase,
  setupApplies,
  SETUPS,
  TARGETS,
  V03_UP,
  V1_TARGETS,
  type CaseSpec,
  type Setup,
  type Target,
} from '../../testing/defect-agent/matrix';

type Outcome = ConformanceLevel | 'not-assessed';

interface DefectExpectation {
  setup?: Setup;
  /** Targets the defect exists on (default: all). */
  on?: readonly Target[];
  /** Checks that must not pass: status fail (advisory where the generation says only MAY). */
  fails: readonly string[];
  /** Per-target replacement of `fails`. */
  failsOn?: Partial<Record<Target, readonly string[]>>;
  /** Checks that may also fail as a timing-dependent consequence of the same defect. */
  mayFail?: readonly string[];
  level: Outcome;
  levelOn?: Partial<Record<Target, Outcome>>;
  /** Apply the defect to the peer agent (setup `peer`). */
  peer?: boolean;
}

interface PermittedExpectation {
  setup?: Setup;
  on?: readonly Target[];
  /** Checks the behaviour exercises: they must pass with it. */
  passes: readonly string[];
}

const CORS = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];

const DEFECTS: Record<DefectName, DefectExpectation> = {
  'card-capabilities-array': { fails: ['card.capabilities.shape'], level: 'non-conformant' },
  'card-capabilities-strings': { fails: ['card.capabilities.shape'], level: 'non-conformant' },
  'card-missing-skills': { fails: ['card.required-fields', 'card.skills'], level: 'non-conformant' },
  'card-html-404': { fails: ['card.discovery'], level: 'not-assessed' },
  'card-wrong-content-type': { fails: ['card.content-type'], level: 'partial' },
  'card-relative-url': { fails: ['card.urls.endpoint'], level: 'non-conformant' },
  'card-undeclared-security': { setup: 'auth', fails: ['card.security.references'], on: TARGETS.filter((t) => !t.startsWith('legacy')), level: 'non-conformant' },
  'card-oauth-no-token-url': { setup: 'auth', fails: ['card.security.schemes'], level: 'non-conformant' },
  'card-apikey-no-name': { setup: 'auth', fails: ['card.security.schemes'], level: 'non-conformant' },
  'card-behind-auth': { setup: 'auth', fails: ['card.public'], level: 'full' },
  'card-huge': { fails: [], level: 'not-assessed' },
  'card-legacy-path-only': { fails: ['card.well-known-path'], on: V03_UP, level: 'full' },
  'card-bad-signature': { setup: 'signed', on: V03_UP, fails: ['card.signatures'], level: 'partial' },
  'send-returns-message': { fails: [], failsOn: { 'legacy JSONRPC': ['lifecycle.send'] }, level: 'full', levelOn: { 'legacy JSONRPC': 'non-conformant' } },
  'task-never-finishes': { fails: [], level: 'partial' },
  'no-task-id': { fails: ['lifecycle.send', 'lifecycle.shape', 'streaming.framing'], level: 'non-conformant' },
  'bad-initial-state': { fails: ['streaming.framing'], level: 'partial' },
  'state-goes-backwards': { fails: ['lifecycle.transitions'], level: 'full' },
  'task-id-changes': { fails: ['lifecycle.get', 'lifecycle.task-id-stable', 'streaming.consistency'], level: 'non-conformant' },
  'cancel-ignored': { fails: ['lifecycle.cancel', 'lifecycle.cancel.effective'], level: 'minimal' },
  'cancel-completed-500': { fails: ['errors.cancel-terminal'], level: 'partial' },
  'cancel-completed-succeeds': { fails: ['errors.cancel-terminal'], level: 'partial' },
  'no-history': { fails: ['lifecycle.history'], level: 'full' },
  'history-ignores-length': { fails: ['lifecycle.history-length'], level: 'partial' },
  'input-required-not-resumable': { fails: ['lifecycle.multi-turn'], level: 'full' },
  'wrong-rpc-id': { on: JSONRPC_TARGETS, fails: ['lifecycle.shape', 'streaming.framing', 'errors.shape'], level: 'minimal' },
  'result-and-error': { on: JSONRPC_TARGETS, fails: ['lifecycle.shape', 'errors.shape'], level: 'minimal' },
  'bad-timestamps': { fails: ['lifecycle.shape', 'streaming.framing'], level: 'minimal' },
  'sse-wrong-content-type': { fails: ['streaming.content-type'], level: 'partial' },
  'sse-never-ends': { fails: [], failsOn: { 'v1.0 JSONRPC': ['streaming.terminal'], 'v1.0 HTTP+JSON': ['streaming.terminal'] }, level: 'full', levelOn: { 'v1.0 JSONRPC': 'partial', 'v1.0 HTTP+JSON': 'partial' } },
  'sse-events-after-final': { fails: ['streaming.after-final', 'lifecycle.transitions'], level: 'partial' },
  'sse-no-final': { fails: ['streaming.terminal'], level: 'partial' },
  'sse-first-not-task': { on: V1_TARGETS, fails: ['streaming.first-event'], level: 'partial' },
  'sse-bare-payload': { on: JSONRPC_TARGETS, fails: ['streaming.framing'], level: 'partial' },
  'sse-no-resubscribe': { fails: ['streaming.resubscribe'], level: 'full', levelOn: { 'v1.0 JSONRPC': 'partial', 'v1.0 HTTP+JSON': 'partial' } },
  'unknown-method-wrong-code': { on: JSONRPC_TARGETS, fails: ['errors.unknown-method'], level: 'partial' },
  'invalid-json-500': { fails: ['errors.invalid-json'], level: 'partial' },
  'invalid-request-wrong-code': { on: JSONRPC_TARGETS, fails: ['errors.invalid-request'], level: 'partial' },
  'invalid-params-wrong-code': { fails: ['errors.invalid-params'], level: 'partial' },
  'task-not-found-wrong-code': { fails: ['errors.task-not-found'], level: 'partial' },
  'task-not-found-500': { fails: ['errors.task-not-found'], level: 'partial' },
  'message-to-terminal-accepted': { fails: ['errors.message-to-terminal'], level: 'partial' },
  'push-wrong-code': { fails: ['errors.push-not-supported'], level: 'partial' },
  'version-lenient': { on: V1_TARGETS, fails: ['errors.version-unsupported', 'errors.version-missing'], level: 'partial' },
  'rest-error-not-status': { on: ['v1.0 HTTP+JSON'], fails: ['errors.shape'], level: 'partial' },
  'auth-not-enforced': { setup: 'auth', fails: ['auth.required'], level: 'partial' },
  'auth-no-www-authenticate': { setup: 'auth', fails: ['auth.challenge'], level: 'partial' },
  'no-cors': { fails: CORS, level: 'full' },
};

const PERMITTED: Record<PermittedName, PermittedExpectation> = {
  'grpc-interface': { on: TARGETS.filter((t) => !t.startsWith('legacy')), passes: ['card.urls.endpoint', 'card.protocol.coherence'] },
  'card-protected': { setup: 'auth', passes: ['card.discovery', 'card.json', 'lifecycle.send'] },
  'card-extra-fields': { passes: ['card.capabilities.shape', 'card.required-fields'] },
  'card-media-ranges': { on: TARGETS.filter((t) => !t.startsWith('legacy')), passes: ['card.modes', 'lifecycle.send'] },
  'image-only-skill': { passes: ['lifecycle.send', 'lifecycle.get'] },
  'video-only-skill': { passes: ['lifecycle.send', 'lifecycle.terminal'] },
  'strict-task-ids': { passes: ['errors.task-not-found', 'errors.unknown-task-message'] },
  'jsonrpc-error-http-status': { on: JSONRPC_TARGETS, passes: ['errors.unknown-method', 'errors.invalid-json', 'errors.invalid-request', 'errors.invalid-params', 'errors.task-not-found', 'errors.shape'] },
  'sse-crlf': { passes: ['streaming.framing', 'streaming.terminal'] },
  'sse-cr': { passes: ['streaming.framing', 'streaming.terminal'] },
  'sse-multiline-data': { passes: ['streaming.framing', 'streaming.artifacts'] },
  'sse-fields': { passes: ['streaming.framing', 'streaming.first-event'] },
  gzip: { passes: ['card.json', 'lifecycle.get', 'streaming.content-type', 'streaming.framing'] },
  'extra-fields': { passes: ['lifecycle.shape', 'streaming.framing'] },
  'skip-working': { passes: ['lifecycle.transitions', 'lifecycle.terminal'] },
  'history-fewer': { passes: ['lifecycle.history', 'lifecycle.history-length'] },
  'timestamps-offset': { passes: ['lifecycle.shape'] },
  'context-rejected': { on: V1_TARGETS, passes: ['lifecycle.context'] },
  'duplicate-cancel-not-found': { on: V1_TARGETS, passes: ['errors.cancel-twice'] },
  'duplicate-cancel-idempotent': { on: V1_TARGETS, passes: ['errors.cancel-twice'] },
  'notification-invalid-request': { on: JSONRPC_TARGETS, passes: ['errors.notification'] },
  'rest-json-content-type': { on: ['v1.0 HTTP+JSON'], passes: ['lifecycle.send', 'errors.shape'] },
  'rest-409-not-cancelable': { on: ['v1.0 HTTP+JSON'], passes: ['errors.cancel-terminal'] },
};

// ------------------------------------------------------------------------------------------ the runs

const outcome = (r: Report): Outcome => r.conformanceLevel ?? 'not-assessed';
const byId = (r: Report) => new Map(reportResults(r).map((x) => [x.id, x]));
/** Results that are not passing for the agent's sake: failures and advisories (errors and skips aside). */
const flagged = (r: Report) => reportResults(r).filter((x) => x.status === 'fail' || x.status === 'advisory');
const describeResult = (x: CheckResult | undefined) => (x ? `${x.status}${x.skipKind ? `/${x.skipKind}` : ''}: ${x.message.slice(0, 200)}` : 'missing');

const cleanCases: CaseSpec[] = TARGETS.flatMap((target) => SETUPS.filter((s) => setupApplies(s, target)).map((setup) => ({ target, setup })));
const defectCases = (Object.entries(DEFECTS) as [DefectName, DefectExpectation][]).flatMap(([d, e]) =>
  (e.on ?? TARGETS).map((target): [DefectName, CaseSpec] => [d, { target, setup: e.peer ? 'peer' : (e.setup ?? 'plain'), ...(e.peer ? { peerDefects: [d] } : { defects: [d] }) }]),
);
const permittedCases = (Object.entries(PERMITTED) as [PermittedName, PermittedExpectation][]).flatMap(([p, e]) =>
  (e.on ?? TARGETS).map((target): [PermittedName, CaseSpec] => [p, { target, setup: e.setup ?? 'plain', permitted: [p] }]),
);

const reports = new Map<string, Report>();
beforeAll(async () => {
  const all = [...cleanCases, ...defectCases.map(([, c]) => c), ...permittedCases.map(([, c]) => c)];
  await pool(all, 6, async (c) => {
    reports.set(caseKey(c), await runCase(c));
  });
}, 600_000);

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
    expect(reportResults(r).filter((x) => x.status === 'error').map((x) => `${x.id}: ${x.message}`)).toEqual([]);
    expect(outcome(r)).toBe('full');
    expect(r.protocol.generation).toBe(c.target.split(' ')[0]);
    const results = Object.fromEntries(reportResults(r).map((x) => [x.id, `${x.status}${x.skipKind ? `/${x.skipKind}` : ''} ${x.level} ${x.tier}`]));
    await expect(`${JSON.stringify(results, null, 1)}\n`).toMatchFileSnapshot(`./__matrix__/clean ${c.target} ${c.setup}.json`);
  });
  it('never leaks the credentials it was given', () => {
    const r = reportOf({ target: 'v1.0 JSONRPC', setup: 'auth' });
    expect(JSON.stringify(r)).not.toContain(MATRIX_SECRET);
    expect(byId(r).get('auth.accepted')?.status).toBe('pass');
  });
});

describe('each defect makes exactly its checks fail, with the expected level', () => {
  it('every defect of the test agent has an expectation', () => {
    expect(Object.keys(DEFECTS).sort()).toEqual([...DEFECT_NAMES].sort());
  });
  it.each(defectCases.map(([d, c]) => [d, c.target, c] as const))('%s on %s', (defect, target, c) => {
    const e = DEFECTS[defect];
    const r = reportOf(c);
    const expected = [...(e.failsOn?.[target] ?? e.fails)].sort();
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
    for (const id of expected) {
      const x = results.get(id)!;
      expect(x.status, `${id}: ${describeResult(x)}`).toBe(x.level === 'MAY' ? 'advisory' : 'fail');
      expect(x.recommendation, id).toBeTruthy();
      expect(x.requirement?.sentences.length, `${id} names the sentences it enforces`).toBeGreaterThan(0);
    }
    expect(outcome(r), r.levelReason).toBe(e.levelOn?.[target] ?? e.level);
  });
});

describe('each permitted behaviour leaves the agent as clean as the plain agent', () => {
  it('every permitted behaviour of the test agent has an expectation', () => {
    expect(Object.keys(PERMITTED).sort()).toEqual([...PERMITTED_NAMES].sort());
  });
  it.each(permittedCases.map(([p, c]) => [p, c.target, c] as const))('%s on %s', (permitted, target, c) => {
    const r = reportOf(c);
    const clean = reportOf({ target, setup: c.setup });
    const cleanFlagged = new Set(flagged(clean).map((x) => x.id));
    const extra = flagged(r).filter((x) => !cleanFlagged.has(x.id));
    expect(extra.map((x) => `${x.id}: ${describeResult(x)}`)).toEqual([]);
    expect(outcome(r), r.levelReason).toBe(outcome(clean));
    const results = byId(r);
    for (const id of PERMITTED[permitted].passes) expect(describeResult(results.get(id)), id).toMatch(/^pass/);
  });
});

describe('coverage: every check can fail and can pass a permitted variant, wherever it applies', () => {
  /** (check, target) pairs where some clean setup judges the check (it is not "not applicable" everywhere). */
  const applicable = () => {
    const pairs = new Set<string>();
    for (const c of cleanCases) for (const x of reportResults(reportOf(c))) if (!(x.status === 'skip' && x.skipKind === 'not-applicable')) pairs.add(`${x.id} @ ${c.target}`);
    return pairs;
  };

  it('every check applies somewhere', () => {
    const seen = new Set([...applicable()].map((p) => p.split(' @ ')[0]));
    expect(CHECK_CATALOG.map((c) => c.id).filter((id) => !seen.has(id))).toEqual([]);
  });

  it('has a defect that makes each check fail on each target where it applies', () => {
    const caught = new Set<string>();
    for (const [d, c] of defectCases) {
      const e = DEFECTS[d];
      const expected = e.failsOn?.[c.target] ?? e.fails;
      for (const x of reportResults(reportOf(c))) {
        if (expected.includes(x.id) && x.status === (x.level === 'MAY' ? 'advisory' : 'fail')) caught.add(`${x.id} @ ${c.target}`);
      }
    }
    expect([...applicable()].filter((p) => !caught.has(p)).sort()).toEqual([]);
  });

  it('has a permitted behaviour that leaves each check passing on each target where it applies', () => {
    const proven = new Set<string>();
    for (const [p, c] of permittedCases) {
      const results = byId(reportOf(c));
      for (const id of PERMITTED[p].passes) if (results.get(id)?.status === 'pass') proven.add(`${id} @ ${c.target}`);
    }
    expect([...applicable()].filter((p) => !proven.has(p)).sort()).toEqual([]);
  });
});

// Referenced so the target groups stay available to expectations as they grow.
void REST_TARGETS;
void KIND_TARGETS;
