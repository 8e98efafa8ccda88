import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import { busiestThread, threadRows } from './threadRows.ts';

/** A PyTorch-like capture: the profiler's span on pid -2 (one range), two real threads of pid 502. */
function capture(): Model {
  const b = new ModelBuilder({ fileName: 'trace.json', format: 'test', byteSize: 0 });
  b.setCaptureSpan(0, 1000);
  const profiler = b.thread(-2, -3, 'PyTorch Profiler');
  b.push(profiler, 0, { name: 'PyTorch Profiler (0)' });
  b.pop(profiler, 1000);
  const main = b.thread(502, 502, 'python3');
  for (let i = 0; i < 5; i++) {
    b.push(main, i * 100, { name: 'step' });
    b.push(main, i * 100 + 10, { name: 'forward' });
    b.pop(main, i * 100 + 50);
    b.pop(main, i * 100 + 90);
  }
  const backward = b.thread(502, 544, 'autograd');
  b.push(backward, 60, { name: 'backward' });
  b.pop(backward, 80);
  return b.finish();
}

describe('hierarchy threads', () => {
  const model = capture();
  const rows = threadRows([{ id: 7, model }], () => false);

  it('lists push/pop tracks in the track tree order, with their range counts', () => {
    expect(rows.map((r) => [r.label, r.ranges])).toEqual([
      [expect.stringContaining('PyTorch Profiler'), 1],
      [expect.stringMatching(/python3.*\(10\)$/), 10],
      [expect.stringMatching(/autograd.*\(1\)$/), 1],
    ]);
    expect(rows.every((r) => r.captureId === 7)).toBe(true);
  });

  it('shows the thread with the most ranges first, not the first listed', () => {
    expect(busiestThread(rows)).toBe(rows[1]);
    expect(busiestThread([])).toBeUndefined();
    // Ties: the first in the list.
    expect(busiestThread([rows[0], rows[2]])).toBe(rows[0]);
  });

  it('leaves hidden tracks out', () => {
    const hidden = threadRows([{ id: 7, model }], (_, track) => track === rows[1].track);
    expect(hidden.map((r) => r.track)).toEqual([rows[0].track, rows[2].track]);
    expect(busiestThread(hidden)).toBe(hidden[0]);
  });
});
