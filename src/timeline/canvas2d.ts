/**
 * The part of CanvasRenderingContext2D the timeline uses. Renderers take this narrow type so that
 * tests can pass a recording mock (testing/recordingCanvas.ts) instead of a browser canvas.
 */
export type Canvas2D = Pick<
  CanvasRenderingContext2D,
  | 'fillRect'
  | 'strokeRect'
  | 'clearRect'
  | 'fillText'
  | 'measureText'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'stroke'
  | 'fill'
  | 'rect'
  | 'clip'
  | 'save'
  | 'restore'
  | 'setTransform'
  | 'translate'
  | 'setLineDash'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'font'
  | 'textBaseline'
  | 'textAlign'
  | 'globalAlpha'
>;
