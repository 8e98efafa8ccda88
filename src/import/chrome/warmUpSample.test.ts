import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../pipeline.ts';
import { chromeWarmUpSample } from './warmUpSample.ts';

describe('chromeWarmUpSample', () => {
  it('has times past 2^31 ns from its first event, as a real trace has, in every size the warm-up loads', async () => {
    for (const events of [100, 300, 500, 1000]) {
      const model = await loadModel(memorySource('warm-up.json', chromeWarmUpSample(events)));
      let last = 0;
      for (let i = 0; i < model.ranges.endNs.length; i++) last = Math.max(last, model.ranges.endNs[i]);
      const first = Math.min(model.ranges.startNs[0], model.marks.timeNs[0]);
      expect(last - first, `${events} events`).toBeGreaterThan(2 ** 31);
      // Both sides of the gap hold ranges.
      expect(model.ranges.startNs.filter((t) => t - first < 2 ** 30).length, `${events} events`).toBeGreaterThan(10);
    }
  });
});
