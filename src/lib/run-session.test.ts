import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timerSleep, type Host, type Report, type RunEvent, type RunOptions } from './engine';
import { syntheticRun } from '../testing/fixtures/events';
import { RunArchive } from './db';
import type { RunFn } from './engine-adapter';
import { mergeableEvent, RunSession } from './run-session';
import { createRunStore } from './run-store';

const syncFrames = (cb: () => void) => {
  cb();
  return () => undefined;
};
const fakeHost: Host = { fetch: () => Promise.reject(new Error('no network')), now: Date.now, sleep: timerSleep, randomUUID: () => 'u' };
const archives: RunArchive[] = [];
afterEach(() => archives.splice(0).forEach((a) => a.close()));

function setup(run: RunFn, stopGraceMs = 50) {
  const archive = new RunArchive(`session-${Math.random()}`);
  archives.push(archive);
  const store = createRunStore(syncFrames);
  const session = new RunSession({
    store,
    archive,
    run,
    createHost: () => fakeHost,
    hostSettings: () => ({ mode: 'proxy' }),
    stopGraceMs,
    newId: () => 'generated',
  });
  return { archive, store, session };
}

const input = { agentUrl: 'http://127.0.0.1:9/a', credentials: { kind: 'bearer' as const, token: 'sekrit-token-123' }, timeoutMs: 5000 };

/** A runner that replays a synthetic run, one event per macrotask, honouring the abort signal. */
const replayRunner =
  (events: RunEvent[], seen: RunOptions[] = []): RunFn =>
  async (_host, options, emit) => {
    seen.push(options);
    for (const e of events) {
      if (options.signal?.aborted) {
        emit({ type: 'run-finished', at: Date.now(), status: 'interrupted' });
        return {} as Report;
      }
      emit(e);
      await new Promise((r) => setTimeout(r, 0));
    }
    return {} as Report;
  };

describe('run session', () => {
  it('feeds the run store and the archive, and hands the runner the form input', async () => {
    const events = syntheticRun({ runId: 'live-1' });
    const seen: RunOptions[] = [];
    const { session, store, archive } = setup(replayRunner(events, seen));
    await session.start(input);
    expect(seen[0]).toMatchObject({ agentUrl: input.agentUrl, credentials: input.credentials, timeoutMs: 5000, transport: 'proxy' });
    expect(store.store.getState().run.status).toBe('completed');
    expect(await archive.events('live-1')).toEqual(events);
    expect(JSON.stringify(await archive.list())).not.toContain('sekrit');
    expect(session.state.getState().phase).toBe('idle');
  });

  it('waits for the start-up restore before recording, and reports the active run id with a promise that settles at the end', async () => {
    let release: () => void = () => undefined;
    const ready = new Promise<void>((r) => (release = r));
    const active: string[] = [];
    let ended = false;
    const archive = new RunArchive(`ready-${Math.random()}`);
    archives.push(archive);
    const store = createRunStore(syncFrames);
    const seen: RunOptions[] = [];
    const session = new RunSession({
      store,
      archive,
      run: replayRunner(syntheticRun({ runId: 'after-ready' }), seen),
      createHost: () => fakeHost,
      hostSettings: () => ({ mode: 'proxy' }),
      ready,
      onRunActive: (id, done) => {
        active.push(id);
        void done.then(() => (ended = true));
      },
    });
    const p = session.start(input);
    await new Promise((r) => setTimeout(r, 20));
    expect(session.state.getState().phase).toBe('running');
    expect(seen).toHaveLength(0);
    void session.start(input); // a second click while waiting starts nothing
    release();
    await p;
    expect(seen).toHaveLength(1);
    expect(active).toEqual(['after-ready']);
    await Promise.resolve();
    expect(ended).toBe(true);
  });

  it('Stop aborts the runner and keeps the partial run, marked interrupted', async () => {
    const { session, store, archive } = setup(replayRunner(syntheticRun({ runId: 'stop-1', targetEvents: 2000 })));
    const done = session.start(input);
    // Stop once a few events are in (not after a fixed 30 ms, which a busy machine may spend before the first one).
    await vi.waitFor(() => expect(store.store.getState().run.eventCount).toBeGreaterThan(2), { timeout: 10_000, interval: 5 });
    session.stop();
    await done;
    const run = store.store.getState().run;
    expect(run.status).toBe('interrupted');
    expect(run.eventCount).toBeGreaterThan(2);
    expect(run.eventCount).toBeLessThan(2000);
    expect((await archive.get('stop-1'))?.status).toBe('interrupted');
  });

  it('closes the run itself when the runner ignores Stop', async () => {
    const stubborn: RunFn = async (_h, _o, emit) => {
      emit(syntheticRun({ runId: 'stubborn' })[0]!);
      await new Promise((r) => setTimeout(r, 2000));
      return {} as Report;
    };
    const { session, store } = setup(stubborn, 20);
    const done = session.start(input);
    await new Promise((r) => setTimeout(r, 10));
    session.stop();
    await done;
    expect(store.store.getState().run.status).toBe('interrupted');
    expect(store.store.getState().run.error).toMatch(/Stopped by the user/);
  });

  it('a runner that throws yields an errored run blamed on our tool, not the agent', async () => {
    const broken: RunFn = async () => {
      throw new Error('not implemented yet');
    };
    const { session, store } = setup(broken);
    await session.start(input);
    const run = store.store.getState().run;
    expect(run.status).toBe('errored');
    expect(run.error).toBe('Our tool failed: not implemented yet');
    expect(run.agentUrl).toBe(input.agentUrl);
  });

  it('re-run merges the new result of one check, keeps earlier exchanges, and asks the runner for only that check', async () => {
    const first = syntheticRun({ runId: 'rr', flawed: true });
    const seen: RunOptions[] = [];
    const { session, store, archive } = setup(replayRunner(first, seen));
    await session.start(input);
    expect(store.store.getState().run.checks['errors.task-not-found']?.status).toBe('fail');
    const exchangesBefore = store.store.getState().run.exchangeOrder.length;
    // The re-run: the runner runs the check again (now fixed) as a fresh little run.
    const second = syntheticRun({ runId: 'other', statuses: { 'errors.task-not-found': 'pass' } });
    (session as unknown as { deps: { run: RunFn } }).deps.run = replayRunner(second, seen);
    await session.rerun(store, 'errors.task-not-found');
    expect(seen[1]?.only).toEqual(['errors.task-not-found']);
    expect(seen[1]?.credentials).toEqual(input.credentials);
    const run = store.store.getState().run;
    expect(run.runId).toBe('rr');
    expect(run.checks['errors.task-not-found']?.status).toBe('pass');
    expect(run.checks['streaming.final-event']?.status).toBe('fail');
    expect(run.exchangeOrder.length).toBeGreaterThan(exchangesBefore);
    expect(run.exchangeOrder.some((id) => id.startsWith('r1-'))).toBe(true);
    // What the re-run changed is recorded for the view ("now passes").
    expect(store.store.getState().reruns['errors.task-not-found']).toMatchObject({ before: 'fail', after: 'pass' });
    const saved = await archive.events('rr');
    expect(saved.filter((e) => e.type === 'run-started')).toHaveLength(1);
    expect(saved.filter((e) => e.type === 'check-finished' && e.result.id === 'errors.task-not-found')).toHaveLength(2);
  });

  it('a re-run that yields no result of its check records no outcome status ("after" is null)', async () => {
    const first = syntheticRun({ runId: 'rr2', flawed: true });
    const { session, store } = setup(replayRunner(first, []));
    await session.start(input);
    (session as unknown as { deps: { run: RunFn } }).deps.run = () => Promise.reject(new Error('boom'));
    await session.rerun(store, 'errors.task-not-found');
    expect(store.store.getState().reruns['errors.task-not-found']).toMatchObject({ before: 'fail', after: null });
    expect(session.state.getState().error).toContain('boom');
  });

  it('mergeableEvent drops run-level events and other checks, prefixes exchange ids', () => {
    const [started, , req] = syntheticRun();
    expect(mergeableEvent(started!, 'x', 'p-')).toBeNull();
    expect(mergeableEvent(req!, 'x', 'p-')).toMatchObject({ exchangeId: 'p-x0' });
    expect(mergeableEvent({ type: 'check-started', at: 1, checkId: 'other', title: '', category: 'interop', level: 'MAY' }, 'x', 'p-')).toBeNull();
    // The re-run check's own start is dropped too: it stays as it was (a failure stays listed and counted) until its new result.
    expect(mergeableEvent({ type: 'check-started', at: 1, checkId: 'x', title: '', category: 'interop', level: 'MAY' }, 'x', 'p-')).toBeNull();
  });
});

describe('replay', () => {
  it('plays a recorded run back through the live store in paced batches, without saving it again', async () => {
    const events = syntheticRun({ runId: 'replayed', targetEvents: 3000 });
    const frames: number[] = [];
    const archive = new RunArchive(`replay-${Math.random()}`);
    archives.push(archive);
    const store = createRunStore((cb) => {
      const t = setTimeout(cb, 0);
      return () => clearTimeout(t);
    });
    store.store.subscribe((s) => frames.push(s.run.eventCount));
    const session = new RunSession({
      store,
      archive,
      run: () => Promise.reject(new Error('unused')),
      createHost: () => fakeHost,
      hostSettings: () => ({ mode: 'proxy' }),
    });
    await session.replay(events, 300);
    const run = store.store.getState().run;
    expect(run.eventCount).toBe(events.length);
    expect(run.status).toBe('completed');
    expect(frames.length).toBeGreaterThan(3); // it arrived over several batches, not at once
    expect(frames.length).toBeLessThan(events.length / 10);
    expect(await archive.list()).toEqual([]);
  });
});
