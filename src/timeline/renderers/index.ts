/** Which renderer draws a row. */
import type { LayoutRow } from '../trackLayout.ts';
import { counterRowRenderer } from './counterRow.ts';
import { groupRowRenderer } from './groupRow.ts';
import { marksRowRenderer } from './marksRow.ts';
import { rangeRowRenderer } from './rangeRow.ts';
import type { TrackRenderer } from './trackRenderer.ts';

export function rendererFor(row: LayoutRow): TrackRenderer {
  if (row.track < 0) return groupRowRenderer;
  switch (row.model.tracks[row.track].kind) {
    case 'marks':
      return marksRowRenderer;
    case 'counter':
      return counterRowRenderer;
    default:
      return rangeRowRenderer;
  }
}
