import { describe, expect, it } from 'vitest';
import { createViewerStore } from '../../state/viewerStore.ts';
import { testFrame } from '../../../testkit/canvas/testFrames.ts';
import { loaded, twoThreadModel } from '../../../testkit/models/timelineModels.ts';
import { RULER_HEIGHT_CSS } from './ruler.ts';
import { FLAG_HIT_CSS, flagAt } from './flags.ts';

describe('flags', () => {
  it('are kept in time order in the store, with notes, and removed by id', () => {
    const store = createViewerStore();
    const late = store.getState().addFlag(800, 'late');
    const early = store.getState().addFlag(100);
    expect(store.getState().flags.map((f) => f.timeNs)).toEqual([100, 800]);
    store.getState().setFlagNote(early, 'early');
    store.getState().removeFlag(late);
    expect(store.getState().flags).toEqual([{ id: early, timeNs: 100, note: 'early' }]);
  });

  it('are hit on the ruler near their line or on their head, not in the rows', () => {
    const frame = testFrame([loaded(twoThreadModel())], { startNs: 0, endNs: 1000, widthCss: 1000 });
    const flags = [
      { id: 1, timeNs: 200, note: '' },
      { id: 2, timeNs: 210, note: '' },
    ];
    expect(flagAt(frame, flags, 203, 5)?.id).toBe(1);
    expect(flagAt(frame, flags, 209, 20)?.id).toBe(2);
    expect(flagAt(frame, flags, 200 + 10 + FLAG_HIT_CSS + 1, 20)).toBeNull();
    expect(flagAt(frame, flags, 200, RULER_HEIGHT_CSS + 1)).toBeNull();
  });
});
