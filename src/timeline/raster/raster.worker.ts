/** Replays the timeline's static frames on its canvas, handed over by the page (see raster.client.ts). */
import { replayDraw } from './drawRecorder.ts';
import type { RasterReply, RasterRequest } from './raster.protocol.ts';

let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;

const reply = (message: RasterReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = (event: MessageEvent<RasterRequest>) => {
  const m = event.data;
  try {
    if (m.kind === 'init') {
      canvas = m.canvas;
      ctx = canvas.getContext('2d', { alpha: false });
      canvas.addEventListener('contextrestored', () => reply({ kind: 'restored' }));
    } else if (m.kind === 'size') {
      if (!canvas) return;
      if (canvas.width !== m.width) canvas.width = m.width;
      if (canvas.height !== m.height) canvas.height = m.height;
    } else if (m.kind === 'draw') {
      if (ctx) replayDraw(ctx, m.draw);
      reply({ kind: 'drawn', id: m.id, ops: m.draw.ops }, [m.draw.ops.buffer]);
    } else if (m.kind === 'pixels') {
      const width = canvas?.width ?? 0;
      const height = canvas?.height ?? 0;
      const data = ctx && width > 0 && height > 0 ? ctx.getImageData(0, 0, width, height).data : new Uint8ClampedArray(0);
      reply({ kind: 'pixels', id: m.id, width, height, data }, [data.buffer]);
    }
  } catch (e) {
    reply({ kind: 'failed', message: `raster worker, ${m.kind}: ${(e as Error).message}` });
  }
};
