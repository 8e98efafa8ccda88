import { describe, expect, it } from 'vitest';
import { chromeWarmUpSample } from '../import/chrome/warmUpSample.ts';
import { loadModel, memorySource } from '../import/pipeline.ts';
import { nativeWarmUpSample } from './nativeWarmUpSample.ts';
import { WARM_UP_LOADS, warmUp, warmUpLoad } from './warmUp.ts';

describe('warmUp', () => {
  it('loads the built-in trace: every common event shape, no warnings, the same bytes each time', async () => {
    const sample = chromeWarmUpSample(2000);
    expect(chromeWarmUpSample(2000)).toEqual(sample);
    const model = await loadModel(memorySource('warm-up.json', sample));
    expect(model.capture.format).toBe('chrome-json');
    expect(model.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    const text = new TextDecoder().decode(sample);
    for (const ph of ['X', 'B', 'E', 'i', 'C', 'b', 'e', 'M']) expect(text).toContain(`"ph":"${ph}"`);
    // Nested args (as PyTorch writes them) and flat ones.
    expect(text).toContain('"Input Dims":[[');
    expect(model.ranges.startNs.length).toBeGreaterThan(1500);
    expect(model.marks.timeNs.length).toBeGreaterThan(100);
    expect(model.counters.timeNs.length).toBeGreaterThan(100);
    expect(Math.max(...model.ranges.depth)).toBeGreaterThan(0);
  });

  it('loads the built-in native captures cleanly: ranges and marks on several threads', async () => {
    const small = await loadModel(memorySource('warm-up.nvtxc', nativeWarmUpSample(true)));
    expect(small.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(small.ranges.startNs.length).toBeGreaterThan(50);
    const model = await loadModel(memorySource('warm-up.nvtxc', nativeWarmUpSample()));
    expect(model.capture.format).toBe('nvtxc');
    expect(model.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(model.ranges.startNs.length).toBeGreaterThan(500);
    expect(model.marks.timeNs.length).toBeGreaterThan(50);
    expect(model.threads.length).toBeGreaterThan(4);
  });

  it('takes Chrome JSON first, then native, the first loads of each short', () => {
    const plan = Array.from({ length: WARM_UP_LOADS }, (_, k) => warmUpLoad(k, 1000));
    expect(plan.slice(0, 5)).toEqual([
      { format: 'chrome', events: 100 },
      { format: 'chrome', events: 300 },
      { format: 'chrome', events: 500 },
      { format: 'chrome', events: 1000 },
      { format: 'chrome', events: 1000 },
    ]);
    expect(plan.filter((l) => l.format === 'chrome')).toHaveLength(WARM_UP_LOADS / 2);
    expect(plan.slice(WARM_UP_LOADS / 2, WARM_UP_LOADS / 2 + 2)).toEqual([
      { format: 'native', small: true },
      { format: 'native', small: false },
    ]);
    expect(plan.slice(WARM_UP_LOADS / 2).every((l) => l.format === 'native')).toBe(true);
    expect(warmUpLoad(0, 50)).toEqual({ format: 'chrome', events: 50 });
  });

  it('runs the loads asked for, and stops before the next one once a real load came', async () => {
    expect(await warmUp(() => false, 3, 50)).toBe(3);

    expect(await warmUp(() => true, 3, 50)).toBe(0);
    let loads = 0;
    const stopAfterTwo = () => loads++ >= 2;
    expect(await warmUp(stopAfterTwo, 10, 50)).toBe(2);
    // With the split load's two sides among the Chrome loads (a failure would end the warm-up early).
    expect(await warmUp(() => false, 8, 50, true)).toBe(8);
  });

  it('lets a message queued during a warm-up load run before the next one', async () => {
    let came = false;
    setTimeout(() => (came = true), 0);
    // The timer's task runs between two loads; the warm-up sees it and stops.
    expect(await warmUp(() => came, 100, 50)).toBeLessThan(100);
  });
});
