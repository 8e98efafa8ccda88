/** Frames for renderer tests: a layout over loaded captures, a scale and a fixed theme. */
import type { LoadedCapture } from '../../src/state/viewerStore.ts';
import type { Frame } from '../../src/timeline/frame.ts';
import { RULER_HEIGHT_CSS } from '../../src/timeline/renderers/ruler.ts';
import { TextMeasurer } from '../../src/timeline/text.ts';
import { themeFrom } from '../../src/timeline/theme.ts';
import { TimeScale } from '../../src/timeline/timeScale.ts';
import { buildTrackLayout, type TrackArrangement } from '../../src/timeline/trackLayout.ts';
import { CHAR_WIDTH } from './recordingCanvas.ts';

/** Theme colors that no range color can equal, so tests can tell boxes from the background. */
export const TEST_THEME = themeFrom(
  {
    '--bg': 'bg',
    '--grid': 'grid',
    '--border': 'border',
    '--panel-bg': 'panel',
    '--fg': 'fg',
    '--fg-muted': 'muted',
    '--accent': 'accent',
    '--selection': 'selection',
  },
  false,
);

export function testFrame(
  captures: LoadedCapture[],
  view: { startNs: number; endNs: number; widthCss: number; heightCss?: number },
  options: { collapsed?: Record<string, true>; scrollTopCss?: number; dpr?: number; arrangement?: TrackArrangement } = {},
): Frame {
  const layout = buildTrackLayout(captures, options.collapsed ?? {}, { arrangement: options.arrangement });
  return {
    layout,
    scale: new TimeScale(view.startNs, view.endNs, view.widthCss),
    scrollTopCss: options.scrollTopCss ?? 0,
    widthCss: view.widthCss,
    heightCss: view.heightCss ?? RULER_HEIGHT_CSS + layout.totalHeightCss,
    theme: TEST_THEME,
    dpr: options.dpr ?? 1,
  };
}

export function testText(): TextMeasurer {
  return new TextMeasurer((s) => s.length * CHAR_WIDTH);
}
