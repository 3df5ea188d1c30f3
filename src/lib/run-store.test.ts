import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from './engine';
import { syntheticRun } from '../testing/fixtures/events';
import { createFrameBatcher, type Scheduler } from './frame-batcher';
import { createRunStore } from './run-store';

/** A manual "animation frame": callbacks run only when the test says a frame happened. */
function manualFrames() {
  let pending: (() => void)[] = [];
  const schedule: Scheduler = (cb) => {
    pending.push(cb);
    return () => {
      pending = pending.filter((p) => p !== cb);
    };
  };
  return {
    schedule,
    frame() {
      const run = pending;
      pending = [];
      run.forEach((cb) => cb());
    },
    get scheduled() {
      return pending.length;
    },
  };
}

describe('frame batcher', () => {
  it('delivers everything queued between two frames as one batch, and arms one frame only', () => {
    const frames = manualFrames();
    const batches: number[][] = [];
    const b = createFrameBatcher<number>((batch) => batches.push(batch), frames.schedule);
    for (let i = 0; i < 100; i++) b.push(i);
    expect(frames.scheduled).toBe(1);
    expect(batches).toEqual([]);
    frames.frame();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(100);
    b.push(100);
    frames.frame();
    expect(batches.map((x) => x.length)).toEqual([100, 1]);
  });

  it('flush delivers at once and cancels the pending frame; cancel drops the queue', () => {
    const frames = manualFrames();
    const got: number[] = [];
    const b = createFrameBatcher<number>((batch) => got.push(...batch), frames.schedule);
    b.pushMany([1, 2, 3]);
    b.flush();
    expect(got).toEqual([1, 2, 3]);
    expect(frames.scheduled).toBe(0);
    b.push(4);
    b.cancel();
    frames.frame();
    expect(got).toEqual([1, 2, 3]);
    expect(b.pending).toBe(0);
  });
});

describe('run store', () => {
  it('folds a 10,000-event run with one applyEvents per frame and ends in the same state as a single fold', () => {
    const events = syntheticRun({ targetEvents: 10_000 });
    expect(events.length).toBeGreaterThanOrEqual(10_000);
    const frames = manualFrames();
    const h = createRunStore(frames.schedule);
    let renders = 0;
    h.store.subscribe(() => renders++);
    // The engine emits events in bursts; 500 per frame here.
    for (let i = 0; i < events.length; i += 500) {
      events.slice(i, i + 500).forEach((e) => h.enqueue(e));
      frames.frame();
    }
    const frameCount = Math.ceil(events.length / 500);
    expect(renders).toBe(frameCount);
    const expected = applyEvents(initialRunState(), events);
    const got = h.store.getState().run;
    expect(got.eventCount).toBe(events.length);
    expect(got.status).toBe('completed');
    expect(got.sse.length).toBe(expected.sse.length);
    expect(got.checkOrder).toEqual(expected.checkOrder);
    expect(h.store.getState().events).toHaveLength(events.length);
  });

  it('load replaces the run and drops queued events; select and notice are kept in the store', () => {
    const frames = manualFrames();
    const h = createRunStore(frames.schedule);
    h.enqueueMany(syntheticRun({ runId: 'a' }));
    h.load(syntheticRun({ runId: 'b', flawed: true }), 'report', 'opened');
    frames.frame();
    const s = h.store.getState();
    expect(s.run.runId).toBe('b');
    expect(s.source).toBe('report');
    expect(s.notice).toBe('opened');
    h.select('x3');
    expect(h.store.getState().selected).toBe('x3');
    h.reset();
    expect(h.store.getState().run.status).toBe('idle');
  });
});

describe('run store: inspector and re-run state', () => {
  it('reveal remembers the check whose evidence it came from; a plain select forgets it; showCheck asks anew each time', () => {
    const h = createRunStore(manualFrames().schedule);
    h.reveal('x1', 'card.capabilities.shape');
    expect(h.store.getState()).toMatchObject({ selected: 'x1', revealedFrom: 'card.capabilities.shape', revealSeq: 1 });
    h.select('x2');
    expect(h.store.getState().revealedFrom).toBeNull();
    h.showCheck('a');
    const first = h.store.getState().checkFocus!;
    h.showCheck('a');
    expect(h.store.getState().checkFocus!.seq).toBeGreaterThan(first.seq);
  });

  it('records re-run outcomes per check and forgets them with the run', () => {
    const h = createRunStore(manualFrames().schedule);
    h.recordRerun('c', 'fail', 'pass');
    expect(h.store.getState().reruns.c).toMatchObject({ before: 'fail', after: 'pass' });
    h.reset();
    expect(h.store.getState().reruns).toEqual({});
  });
});
