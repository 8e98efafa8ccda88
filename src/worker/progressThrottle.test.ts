import { describe, expect, it } from 'vitest';
import { PROGRESS_INTERVAL_MS, throttledProgress } from './progressThrottle.ts';

describe('throttledProgress', () => {
  it('passes the first report, then one per interval, and always the last', () => {
    let clock = 1000;
    const posted: number[] = [];
    const onProgress = throttledProgress((done) => posted.push(done), () => clock);
    // A slice every 55 ms, as the 10M native load's.
    for (let done = 1; done <= 20; done++) {
      onProgress(done, 20);
      clock += 55;
    }
    // Every PROGRESS_INTERVAL_MS (400): 0, 440, 880 ms, then the last (1045 ms): reports 1, 9, 17, 20.
    expect(posted).toEqual([1, 9, 17, 20]);
  });

  it('passes a report exactly one interval after the last one', () => {
    let clock = 0;
    const posted: number[] = [];
    const onProgress = throttledProgress((done) => posted.push(done), () => clock);
    onProgress(1, 10);
    clock = PROGRESS_INTERVAL_MS - 1;
    onProgress(2, 10);
    clock = PROGRESS_INTERVAL_MS;
    onProgress(3, 10);
    expect(posted).toEqual([1, 3]);
  });
});
