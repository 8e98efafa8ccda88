import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import { chromeTraceBlob } from './exportChrome.ts';

describe('chromeTraceBlob', () => {
  it('gathers every piece of the export into one JSON document, reporting progress', async () => {
    const b = new ModelBuilder({ fileName: 'big.nvtxt', format: 'test', byteSize: 0 });
    const t = b.thread(3, 4, 'worker');
    // Enough events for several pieces of the default size.
    for (let i = 0; i < 30_000; i++) {
      b.push(t, i * 10, { name: `step ${i % 7} with a name long enough to fill pieces` });
      b.pop(t, i * 10 + 5);
    }
    const progress: number[] = [];
    const blob = await chromeTraceBlob(b.finish(), (chars) => progress.push(chars));
    expect(progress.length).toBeGreaterThan(1);
    expect(blob.type).toBe('application/json');
    const doc = JSON.parse(await blob.text()) as { traceEvents: { ph: string }[] };
    expect(doc.traceEvents.filter((e) => e.ph === 'X')).toHaveLength(30_000);
    expect(progress.at(-1)).toBe((await blob.text()).length);
  });
});
