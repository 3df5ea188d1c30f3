/**
 * Issue "the conformance suite", Proving it: a test agent with switchable defects. Each defect must make
 * exactly the intended checks fail (or error), and the clean configuration must pass them all.
 * The expected sets list every failing check; a check that also fails as a direct consequence of the
 * same defect (e.g. resubscribe uses the same broken stream) is listed with it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { DEFECT_NAMES, startDefectAgent, type DefectName, type RunningDefectAgent } from '../../testing/defect-agent';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';

type Gen = 'legacy' | 'v0.2' | 'v0.3' | 'v1.0';
type Bind = 'JSONRPC' | 'HTTP+JSON';
type Target = `${Gen} ${Bind}`;

interface Expectation {
  /** Failing checks per target; `*` applies to every target listed in `on`. */
  fails: Partial<Record<Target | '*', string[]>>;
  /** Checks that may also fail, depending on timing, as a legitimate consequence of the same defect. */
  mayFail?: string[];
  on?: Target[];
  auth?: boolean;
}

const CORE: Target[] = ['v1.0 JSONRPC', 'v0.3 JSONRPC'];
const CORS = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];

const EXPECT: Record<DefectName, Expectation> = {
  'card-capabilities-array': { fails: { '*': ['card.capabilities.shape'] } },
  'card-capabilities-strings': { fails: { '*': ['card.capabilities.shape'] } },
  'card-missing-skills': { fails: { '*': ['card.required-fields', 'card.skills'] } },
  'card-html-404': { fails: { '*': ['card.discovery'] } },
  'card-wrong-content-type': { fails: { '*': ['card.content-type'] } },
  'card-relative-url': { fails: { '*': ['card.urls.endpoint'] } },
  'card-undeclared-security': { fails: { '*': ['card.security.references'] }, auth: true },
  'card-oauth-no-token-url': { fails: { '*': ['card.security.schemes'] }, auth: true },
  'card-apikey-no-name': { fails: { '*': ['card.security.schemes'] }, auth: true },
  'card-behind-auth': { fails: { '*': ['card.public'] }, auth: true },
  'card-huge': { fails: { '*': ['card.json'] } },
  'card-legacy-path-only': { fails: { '*': ['card.well-known-path'] } },
  'send-returns-message': { fails: { '*': [] } },
  'task-never-finishes': { fails: { '*': ['lifecycle.terminal', 'streaming.terminal', 'streaming.resubscribe'] } },
  'no-task-id': { fails: { '*': ['lifecycle.send', 'lifecycle.shape', 'streaming.framing'] } },
  'bad-initial-state': { fails: { '*': ['streaming.framing'] } },
  'state-goes-backwards': { fails: { '*': ['lifecycle.transitions'] } },
  'task-id-changes': {
    fails: {
      'v1.0 JSONRPC': ['lifecycle.get', 'lifecycle.task-id-stable', 'lifecycle.multi-turn', 'lifecycle.list', 'streaming.consistency', 'streaming.resubscribe'],
      'v0.3 JSONRPC': ['lifecycle.get', 'lifecycle.task-id-stable', 'lifecycle.multi-turn', 'streaming.consistency', 'streaming.resubscribe'],
    },
  },
  'cancel-ignored': { fails: { '*': ['lifecycle.cancel', 'lifecycle.cancel.effective'] } },
  'cancel-completed-500': { fails: { '*': ['errors.cancel-terminal'] } },
  'cancel-completed-succeeds': { fails: { '*': ['errors.cancel-terminal'] } },
  'no-history': { fails: { '*': ['lifecycle.history'] } },
  'history-ignores-length': { fails: { '*': ['lifecycle.history'] } },
  'input-required-not-resumable': { fails: { '*': ['lifecycle.multi-turn'] } },
  'wrong-rpc-id': { fails: { '*': ['lifecycle.shape', 'streaming.framing', 'errors.shape'] } },
  'result-and-error': { fails: { '*': ['lifecycle.shape', 'errors.shape'] } },
  'bad-timestamps': { fails: { '*': ['lifecycle.shape', 'streaming.framing'] } },
  'sse-wrong-content-type': { fails: { '*': ['streaming.content-type', 'streaming.resubscribe'] } },
  'sse-never-ends': { fails: { 'v1.0 JSONRPC': ['streaming.terminal', 'streaming.resubscribe'], 'v0.3 JSONRPC': ['streaming.closes', 'streaming.resubscribe'] } },
  // The extra event moves the task from completed back to working: an illegal transition too.
  'sse-events-after-final': { fails: { '*': ['lifecycle.transitions', 'streaming.after-final'] } },
  'sse-no-final': { fails: { '*': ['streaming.terminal'] } },
  // On v0.3 the first event may legally be a status; but a subscription to a task that finishes at that moment
  // then carries no event at all, which streaming.resubscribe rightly fails (only under load).
  'sse-first-not-task': { fails: { 'v1.0 JSONRPC': ['streaming.first-event', 'streaming.resubscribe'], 'v0.3 JSONRPC': [] }, mayFail: ['streaming.resubscribe'] },
  'sse-bare-payload': { fails: { '*': ['streaming.framing'] } },
  'sse-no-resubscribe': { fails: { '*': ['streaming.resubscribe'] } },
  'unknown-method-wrong-code': { fails: { '*': ['errors.unknown-method'] } },
  'invalid-json-500': { fails: { '*': ['errors.invalid-json'] } },
  'invalid-request-wrong-code': { fails: { '*': ['errors.invalid-request'] } },
  'invalid-params-wrong-code': { fails: { '*': ['errors.invalid-params'] } },
  'task-not-found-wrong-code': { fails: { '*': ['errors.task-not-found'], 'v1.0 HTTP+JSON': ['errors.task-not-found'] }, on: [...CORE, 'v1.0 HTTP+JSON'] },
  'task-not-found-500': { fails: { '*': ['errors.task-not-found'] } },
  'message-to-terminal-accepted': { fails: { '*': ['errors.message-to-terminal'] } },
  'push-wrong-code': { fails: { '*': ['errors.push-not-supported'] } },
  'version-lenient': { fails: { 'v1.0 JSONRPC': ['errors.version-unsupported', 'errors.version-missing'], 'v1.0 HTTP+JSON': ['errors.version-unsupported', 'errors.version-missing'] }, on: ['v1.0 JSONRPC', 'v1.0 HTTP+JSON'] },
  'rest-error-not-status': { fails: { 'v1.0 HTTP+JSON': ['errors.shape'] }, on: ['v1.0 HTTP+JSON'] },
  'auth-not-enforced': { fails: { '*': ['auth.required'] }, auth: true },
  'auth-no-www-authenticate': { fails: { '*': ['auth.challenge'] }, auth: true },
  'no-cors': { fails: { '*': CORS } },
};

const SECRET = 'defect-test-secret-9f3';
const agents: RunningDefectAgent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

async function run(target: Target, defects: DefectName[], auth: boolean) {
  const [generation, binding] = target.split(' ') as [Gen, Bind];
  const agent = await startDefectAgent({ generation, binding, defects, slowTaskMs: 300, stepMs: 10, ...(auth ? { auth: { scheme: 'bearer', secret: SECRET } } : {}) });
  agents.push(agent);
  const report = await runConformance(
    createNodeHost(),
    { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), timeoutMs: 5000, ...(auth ? { credentials: { kind: 'bearer', token: SECRET } } : {}) },
    () => {},
  );
  await agent.close();
  return report;
}

const notPassing = (report: Awaited<ReturnType<typeof run>>) =>
  reportResults(report)
    .filter((r) => r.status === 'fail' || r.status === 'error')
    .map((r) => r.id)
    .sort();

describe('clean configurations pass every applicable check', () => {
  const targets: Target[] = ['legacy JSONRPC', 'v0.2 JSONRPC', 'v0.3 JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC', 'v1.0 HTTP+JSON'];
  it.concurrent.each(targets)('%s: level full, nothing fails', async (target) => {
    const report = await run(target, [], false);
    expect(notPassing(report)).toEqual([]);
    expect(report.conformanceLevel).toBe('full');
    expect(report.provisional).toBe(false);
    expect(report.protocol.generation).toBe(target.split(' ')[0]);
    expect(report.summary.passed).toBeGreaterThan(30);
  });
  it.concurrent('with auth configured and credentials given, the auth checks pass too', async () => {
    const report = await run('v1.0 JSONRPC', [], true);
    expect(notPassing(report)).toEqual([]);
    const auth = report.categories.errorHandling.filter((r) => r.id.startsWith('auth.'));
    expect(auth.map((r) => [r.id, r.status])).toEqual([
      ['auth.required', 'pass'],
      ['auth.challenge', 'pass'],
      ['auth.accepted', 'pass'],
    ]);
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });
});

describe('each defect fails exactly its checks', () => {
  it('every defect of the test agent has an expectation', () => {
    expect(Object.keys(EXPECT).sort()).toEqual([...DEFECT_NAMES].sort());
  });
  const cases = Object.entries(EXPECT).flatMap(([defect, e]) =>
    (e.on ?? CORE).map((target) => [defect as DefectName, target, e] as const),
  );
  it.concurrent.each(cases)('%s on %s', async (defect, target, e) => {
    const expected = (e.fails[target] ?? e.fails['*'] ?? []).slice().sort();
    const report = await run(target, [defect], !!e.auth);
    const got = notPassing(report).filter((id) => expected.includes(id) || !e.mayFail?.includes(id));
    const detail = reportResults(report)
      .filter((r) => got.includes(r.id) !== expected.includes(r.id))
      .map((r) => `${r.id}: ${r.status}: ${r.message}`)
      .join('\n');
    expect(got, detail).toEqual(expected);
    // Failures come with a recommendation and evidence.
    for (const r of reportResults(report).filter((x) => x.status === 'fail')) {
      expect(r.recommendation, r.id).toBeTruthy();
      expect(r.message.length, r.id).toBeGreaterThan(10);
    }
  });
});
