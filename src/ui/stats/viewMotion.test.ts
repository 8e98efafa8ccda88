import { describe, expect, it } from 'vitest';
import { createViewerStore } from '../../state/viewerStore.ts';
import { ViewMotion } from './viewMotion.ts';

/** A clock the test moves; `sleep` advances it and records how long was asked for. */
function fakeTime() {
  let t = 1000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => void (t += ms),
    sleeps,
    sleep: (ms: number) => {
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

describe('ViewMotion', () => {
  it('is still at once when the view has not moved, and waits until STILL after the last move', async () => {
    const store = createViewerStore();
    const time = fakeTime();
    const motion = new ViewMotion(store, 250, 5000, time.now, time.sleep);
    await motion.whenStill();
    expect(time.sleeps).toEqual([]);
    store.getState().setView(0, 100);
    time.advance(100);
    await motion.whenStill();
    expect(time.sleeps).toEqual([150]);
    // Other state changes are not motion.
    store.getState().setPanel('compare');
    await motion.whenStill();
    expect(time.sleeps).toEqual([150]);
    motion.dispose();
    store.getState().setView(0, 200);
    await motion.whenStill();
    expect(time.sleeps).toEqual([150]);
  });

  it('waits again when the view moves during the wait, and gives up after the longest wait', async () => {
    const store = createViewerStore();
    let t = 0;
    const sleeps: number[] = [];
    const motion = new ViewMotion(store, 250, 1000, () => t, (ms) => {
      sleeps.push(ms);
      t += ms;
      // The view keeps moving (a pan that never pauses).
      store.getState().setView(t, t + 100);
      return Promise.resolve();
    });
    store.getState().setView(0, 100);
    await motion.whenStill();
    expect(t).toBe(1000);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(sleeps.length).toBe(4);
  });

  it('whenQuietFor counts from the call, starts again at each move, and has no upper bound', async () => {
    const store = createViewerStore();
    let t = 0;
    const sleeps: number[] = [];
    let moves = 3;
    const motion = new ViewMotion(store, 250, 1000, () => t, (ms) => {
      sleeps.push(ms);
      // The view moves 500 ms into each of the first three waits.
      t += moves-- > 0 ? 500 : ms;
      if (moves >= 0) store.getState().setView(t, t + 100);
      return Promise.resolve();
    });
    await motion.whenQuietFor(2000);
    // Never quiet before 2 s after the call, nor before 2 s after the last move (past the 1 s longest wait of whenStill).
    expect(sleeps).toEqual([2000, 2000, 2000, 2000]);
    expect(t).toBe(1500 + 2000);
  });
});

