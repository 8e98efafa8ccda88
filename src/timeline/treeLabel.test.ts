import { describe, expect, it } from 'vitest';
import { shownDetail, splitLabel } from './treeLabel.ts';

describe('splitLabel', () => {
  it('keeps the last word, where ids sit, out of the elided head', () => {
    expect(splitLabel('renderer (1844)')).toEqual({ head: 'renderer', tail: ' (1844)' });
    expect(splitLabel('Thread 51306')).toEqual({ head: 'Thread', tail: ' 51306' });
    expect(splitLabel('worker pool thread 16730')).toEqual({ head: 'worker pool thread', tail: ' 16730' });
  });

  it('keeps the end of a single long word and leaves short labels whole', () => {
    expect(splitLabel('Push/Pop')).toEqual({ head: 'Push/Pop', tail: '' });
    expect(splitLabel('cudaStreamSynchronize')).toEqual({ head: 'cudaStreamSynch', tail: 'ronize' });
    const long = 'void gemm<float, 128>(float const*, float*, int)_kernel_with_a_very_long_final_word_12345';
    const parts = splitLabel(long);
    expect(parts.head + parts.tail).toBe(long);
    expect(parts.tail).toBe('_12345');
  });

  it('keeps the last step of a path whole (a pinned row): the name of the row itself', () => {
    expect(splitLabel('train.py (4242) › main (4242) › Counters › GPU memory in use')).toEqual({
      head: 'train.py (4242) › main (4242) › Counters',
      tail: ' › GPU memory in use',
    });
    expect(splitLabel('renderer (1844) › NVTX › IO (2)').tail).toBe(' › IO (2)');
    // A last step too long to keep whole: cut as any label.
    expect(splitLabel('app › void gemm_kernel_with_a_very_long_name_indeed<float>(int) 7').tail).toBe(' 7');
  });

  it('never splits a surrogate pair', () => {
    const label = 'loooooooooooong😀😀😀';
    const parts = splitLabel(label);
    expect(parts.head + parts.tail).toBe(label);
    expect(Array.from(parts.tail)).toHaveLength(6);
  });
});

describe('shownDetail', () => {
  it('drops a tid or pid the label already shows', () => {
    expect(shownDetail('main (4880)', 'tid 4880')).toBeUndefined();
    expect(shownDetail('Thread 51306', 'tid 51306')).toBeUndefined();
    expect(shownDetail('renderer (1844)', 'pid 1844')).toBeUndefined();
  });

  it('keeps a detail that says something else', () => {
    expect(shownDetail('main (48801)', 'tid 4880')).toBe('tid 4880');
    expect(shownDetail('Render loop', 'nvtxt')).toBe('nvtxt');
    expect(shownDetail('main', undefined)).toBeUndefined();
  });
});
