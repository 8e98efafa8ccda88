import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { runningTotalSource, runningTotalTrack } from './query.ts';

describe('running-total rows', () => {
  it('pair a delta counter row with the total derived from it, not with a namesake elsewhere', () => {
    const b = new ModelBuilder({ fileName: 't', format: 'test', byteSize: 0 });
    for (const pid of [1, 2]) {
      const p = b.process(pid);
      const delta = b.counterRow({ label: 'sent', process: p, counter: { valueType: 'delta' } });
      const total = b.counterRow({ label: 'sent (running total)', process: p, counter: { valueType: 'deltaSinceStart', derived: 'runningTotal', source: 'sent' } });
      b.counter(delta, 10 * pid, 1);
      b.counter(total, 10 * pid, 1);
    }
    const m = b.finish();
    const index = (pid: number, label: string) => m.tracks.findIndex((t) => t.label === label && m.processes[t.process].pid === pid);
    for (const pid of [1, 2]) {
      const delta = index(pid, 'sent');
      const total = index(pid, 'sent (running total)');
      expect(runningTotalTrack(m, delta)).toBe(total);
      expect(runningTotalSource(m, total)).toBe(delta);
    }
    expect(runningTotalTrack(m, index(1, 'sent (running total)'))).toBe(-1);
  });
});
