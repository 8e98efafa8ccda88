import { describe, expect, it } from 'vitest';
import { encodeViewHash } from './hashState.ts';
import { linkedFiles } from './linkedFiles.ts';

describe('linkedFiles', () => {
  it('names the files a link was made on', () => {
    const hash = encodeViewHash({ captures: ['run 1.nvtxc', 'report.sqlite'], window: { startNs: 0, endNs: 10 }, extra: [] });
    expect(linkedFiles(`#${hash}`)).toEqual(['run 1.nvtxc', 'report.sqlite']);
    expect(linkedFiles(hash)).toEqual(['run 1.nvtxc', 'report.sqlite']);
  });

  it('gives nothing for a page without a view in its hash', () => {
    expect(linkedFiles('')).toEqual([]);
    expect(linkedFiles('#section')).toEqual([]);
    expect(linkedFiles('#v=99&c=a.nvtxt')).toEqual([]);
  });
});
