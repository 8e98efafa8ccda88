/**
 * Heights and vertical positions inside rows, shared by the layout (row heights), the renderers
 * (where each level is drawn) and hit testing (which level a y falls in).
 *
 * Stacked and lane rows show every level up to `MAX_LEVELS_SHOWN`; deeper levels are folded into
 * the last shown lane (drawn over each other, merged per pixel like the rest) so a pathological
 * 500-deep recursion cannot push every other row off screen, until the user opens the row from the
 * tree (its "N levels" button): then the row grows to show every level, as in Nsight and Perfetto.
 */
import { levelCount } from '../model/query.ts';
import type { Track } from '../model/types.ts';
import type { CssPx } from './units.ts';

export const LEVEL_HEIGHT_CSS: CssPx = 18;
/** Height of a range box inside its level (the rest is the gap to the next level). */
export const BOX_HEIGHT_CSS: CssPx = 17;
export const ROW_PAD_TOP_CSS: CssPx = 2;
export const ROW_PAD_BOTTOM_CSS: CssPx = 3;
export const MAX_LEVELS_SHOWN = 24;
/** Strip at the top of a category row holding its marks. */
export const MARK_STRIP_CSS: CssPx = 14;
export const MARKS_ROW_CSS: CssPx = 20;
export const COUNTER_ROW_CSS: CssPx = 44;
/** Capture, process, thread and other group rows. */
export const HEADER_ROW_CSS: CssPx = 24;

export interface RowGeometry {
  heightCss: CssPx;
  /** Levels of the track (stack depth or lanes). */
  levelsTotal: number;
  /** Levels drawn; the last one also holds the folded deeper levels. */
  levelsShown: number;
  /** Height of the marks strip at the top (0 when the row has no marks). */
  markStripCss: CssPx;
  /** Top of level 0, from the top of the row. */
  firstLevelTopCss: CssPx;
}

/** Heights a counter row can be given by dragging its bottom edge. */
export const COUNTER_ROW_MIN_CSS: CssPx = 24;
export const COUNTER_ROW_MAX_CSS: CssPx = 400;

/**
 * `allLevels`: the user opened the row to show every level, however deep. `counterHeightCss`: the
 * height the user gave a counter row.
 */
export function trackGeometry(track: Track, allLevels = false, counterHeightCss?: CssPx): RowGeometry {
  if (track.kind === 'counter') {
    const heightCss = counterHeightCss === undefined ? COUNTER_ROW_CSS : Math.min(COUNTER_ROW_MAX_CSS, Math.max(COUNTER_ROW_MIN_CSS, counterHeightCss));
    return { heightCss, levelsTotal: 0, levelsShown: 0, markStripCss: 0, firstLevelTopCss: 0 };
  }
  if (track.kind === 'marks') {
    return { heightCss: MARKS_ROW_CSS, levelsTotal: 0, levelsShown: 0, markStripCss: MARKS_ROW_CSS, firstLevelTopCss: MARKS_ROW_CSS };
  }
  const levelsTotal = levelCount(track);
  const levelsShown = allLevels ? levelsTotal : Math.min(levelsTotal, MAX_LEVELS_SHOWN);
  const markStripCss = track.markRefEnd > track.markRefBegin ? MARK_STRIP_CSS : 0;
  const firstLevelTopCss = markStripCss + ROW_PAD_TOP_CSS;
  const heightCss =
    levelsShown === 0 ? Math.max(markStripCss, MARKS_ROW_CSS) : firstLevelTopCss + levelsShown * LEVEL_HEIGHT_CSS + ROW_PAD_BOTTOM_CSS;
  return { heightCss, levelsTotal, levelsShown, markStripCss, firstLevelTopCss };
}

/** Top of the lane where `level` is drawn. */
export function levelTopCss(geometry: RowGeometry, level: number): CssPx {
  return geometry.firstLevelTopCss + Math.min(level, geometry.levelsShown - 1) * LEVEL_HEIGHT_CSS;
}

/** Shown lane at a row-local y, or -1 outside the lanes. */
export function laneAtY(geometry: RowGeometry, yCss: CssPx): number {
  const lane = Math.floor((yCss - geometry.firstLevelTopCss) / LEVEL_HEIGHT_CSS);
  return lane >= 0 && lane < geometry.levelsShown ? lane : -1;
}
