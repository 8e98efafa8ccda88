import { describe, expect, it } from 'vitest';
import { FrameScheduler, type FrameLayers } from './scheduler.ts';

/** A manual requestAnimationFrame: frames run when the test says so. */
function manualRaf() {
  let next = 1;
  const queued = new Map<number, FrameRequestCallback>();
  return {
    raf: (cb: FrameRequestCallback) => {
      queued.set(next, cb);
      return next++;
    },
    caf: (h: number) => void queued.delete(h),
    get queued() {
      return queued.size;
    },
    run(now: number) {
      const callbacks = [...queued.values()];
      queued.clear();
      for (const cb of callbacks) cb(now);
    },
  };
}

describe('FrameScheduler', () => {
  it('collapses any number of requests into one frame drawing the union of layers', () => {
    const clock = manualRaf();
    const draws: FrameLayers[] = [];
    const s = new FrameScheduler({ animate: () => false, draw: (l) => draws.push(l) }, clock.raf, clock.caf);
    s.request('overlay');
    s.request('static');
    s.request('overlay');
    expect(clock.queued).toBe(1);
    clock.run(16);
    expect(draws).toEqual([{ static: true, overlay: true }]);
    s.request('overlay');
    clock.run(32);
    expect(draws[1]).toEqual({ static: false, overlay: true });
    clock.run(48);
    expect(draws.length).toBe(2);
  });

  it('runs animations every frame until they stop, drawing what they request in the same frame', () => {
    const clock = manualRaf();
    const draws: number[] = [];
    let steps = 0;
    const s = new FrameScheduler(
      {
        animate: () => {
          steps++;
          s.request('static');
          return steps < 3;
        },
        draw: (_l, now) => draws.push(now),
      },
      clock.raf,
      clock.caf,
    );
    s.startAnimation();
    clock.run(1);
    clock.run(2);
    clock.run(3);
    clock.run(4);
    expect(steps).toBe(3);
    expect(draws).toEqual([1, 2, 3]);
    expect(s.pending).toBe(false);
  });

  it('resolves whenDrawn after the frame and stops on destroy', async () => {
    const clock = manualRaf();
    const s = new FrameScheduler({ animate: () => false, draw: () => {} }, clock.raf, clock.caf);
    await s.whenDrawn();
    s.request('static');
    let drawn = false;
    const waiting = s.whenDrawn().then(() => (drawn = true));
    await Promise.resolve();
    expect(drawn).toBe(false);
    clock.run(5);
    await waiting;
    expect(drawn).toBe(true);
    s.request('static');
    s.destroy();
    expect(clock.queued).toBe(0);
  });
});
