/** Counter rows for the CLI's tests: a level with an unavailable sample, a delta counter and its running total. */
import { ModelBuilder } from '../../src/model/builder.ts';
import type { Model } from '../../src/model/types.ts';

export function counterTestModel(): Model {
  const b = new ModelBuilder({ fileName: 'c.test', format: 'test', byteSize: 0 });
  const p = b.process(1, 'p');
  const level = b.counterRow({ label: 'level', process: p, unit: 'B' });
  const sent = b.counterRow({ label: 'sent', process: p, unit: 'B', counter: { valueType: 'delta', interpolation: 'sinceLast' } });
  const total = b.counterRow({ label: 'sent (running total)', process: p, unit: 'B', counter: { valueType: 'deltaSinceStart', derived: 'runningTotal', source: 'sent' } });
  b.counter(level, 0, 3);
  b.counter(level, 10, NaN);
  b.counter(level, 20, 4);
  for (const [t, v, sum] of [
    [5, 2, 2],
    [15, NaN, NaN],
    [25, 5, 7],
  ]) {
    b.counter(sent, t, v);
    b.counter(total, t, sum);
  }
  b.setCaptureSpan(0, 30);
  return b.finish();
}
