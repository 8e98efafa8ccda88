/**
 * A generated capture for drawing benchmarks: `threads` threads of nested push/pop ranges (leaves
 * of 0.2-2.2 µs in groups of eight under a middle range, ten middles under an outer range), about
 * `ranges` ranges in all, 200 names. Deterministic.
 */
import { ModelBuilder } from '../../src/model/builder.ts';
import type { Model } from '../../src/model/types.ts';

export function syntheticCapture(ranges: number, threads: number): Model {
  const b = new ModelBuilder({ fileName: 'synthetic', format: 'test', byteSize: 0 });
  b.process(1, 'bench');
  const names = Array.from({ length: 200 }, (_, i) => b.intern(`name ${i}`));
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const perThread = Math.floor(ranges / threads);
  for (let th = 0; th < threads; th++) {
    const t = b.thread(1, th + 1, `worker ${th}`);
    let time = 0;
    let k = 0;
    while (k < perThread) {
      const outerStart = time;
      for (let m = 0; m < 10 && k < perThread; m++) {
        const midStart = time;
        for (let l = 0; l < 8 && k < perThread; l++, k++) {
          const length = 200 + Math.floor(random() * 2000);
          b.range(t, time, time + length, { nameId: names[Math.floor(random() * names.length)] });
          time += length + 50;
        }
        b.range(t, midStart, time, { nameId: names[m] });
        k++;
        time += 100;
      }
      b.range(t, outerStart, time, { nameId: names[150] });
      k++;
      time += 1000;
    }
  }
  return b.finish();
}

/** The scripted views of the benchmark: zoom from the whole capture to 1 µs, then pan across at 1/50 of it. */
export function benchmarkViews(durationNs: number): [number, number][] {
  const views: [number, number][] = [];
  for (let i = 0; i <= 120; i++) {
    const span = durationNs * Math.pow(1000 / durationNs, i / 120);
    views.push([durationNs / 2 - span / 2, durationNs / 2 + span / 2]);
  }
  const span = durationNs / 50;
  for (let i = 0; i <= 60; i++) {
    const start = ((durationNs - span) * i) / 60;
    views.push([start, start + span]);
  }
  return views;
}
