/**
 * The track interface: each kind of row knows how to draw itself for a frame and how to find
 * what is under a point, from the same TimeScale and the same geometry, so that what is drawn is
 * what a click hits.
 */
import type { Canvas2D } from '../canvas2d.ts';
import type { StripPlacement } from './rectStrips.ts';
import type { StylePaint } from '../styleColors.ts';
import type { TextMeasurer } from '../text.ts';
import type { Theme } from '../theme.ts';
import type { TimeScale } from '../timeScale.ts';
import type { LayoutRow } from '../trackLayout.ts';
import type { CssPx } from '../units.ts';

export interface RowDrawEnv {
  ctx: Canvas2D;
  /** The row; the context is translated so that y = 0 is the top of the row. */
  row: LayoutRow;
  /** The frame's scale for this row's capture (takes model times). */
  scale: TimeScale;
  theme: Theme;
  paint: StylePaint;
  /** Measures in `theme.labelFont`, which is the context's font while rows draw. */
  text: TextMeasurer;
  dpr: number;
  /** Row-local y range on screen: parts outside it are skipped. */
  visibleTopCss: CssPx;
  visibleBottomCss: CssPx;
  /** Where opaque boxes may be drawn as image strips (the page's static canvas); absent: one fillRect each. */
  strips?: StripPlacement | null;
}

export interface RowHitEnv {
  row: LayoutRow;
  scale: TimeScale;
}

export type Hit =
  /** `merged`: ranges of the hit's level in the pointer's pixel column, when more than one (a merged block). */
  | { kind: 'range'; row: LayoutRow; index: number; merged?: number }
  | { kind: 'mark'; row: LayoutRow; index: number }
  | { kind: 'counter'; row: LayoutRow; sample: number; tNs: number };

export interface TrackRenderer {
  draw(env: RowDrawEnv): void;
  /** What is at row-local (xCss, yCss), or null. */
  hitTest(xCss: CssPx, yCss: CssPx, env: RowHitEnv): Hit | null;
}

/** A box in canvas CSS pixels. */
export interface BoxCss {
  x0: CssPx;
  x1: CssPx;
  y: CssPx;
  h: CssPx;
  /** Canvas y above which the box's row is covered (the pinned band over scrolled rows); the ruler's bottom when absent. */
  clipTopCss?: CssPx;
}
