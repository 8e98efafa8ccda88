/** Replays the timeline's frames on its two canvases, handed over by the page (see raster.client.ts). */
import { replayDraw } from './drawRecorder.ts';
import type { RasterReply, RasterRequest } from './raster.protocol.ts';

let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
let overlay: OffscreenCanvas | null = null;
let overlayCtx: OffscreenCanvasRenderingContext2D | null = null;

const reply = (message: RasterReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = (event: MessageEvent<RasterRequest>) => {
  const m = event.data;
  try {
    if (m.kind === 'init') {
      canvas = m.canvas;
      ctx = canvas.getContext('2d', { alpha: false });
      canvas.addEventListener('contextrestored', () => reply({ kind: 'restored' }));
      overlay = m.overlay;
      overlayCtx = overlay.getContext('2d');
      overlay.addEventListener('contextrestored', () => reply({ kind: 'restored' }));
    } else if (m.kind === 'size') {
      for (const c of [canvas, overlay]) {
        if (!c) continue;
        if (c.width !== m.width) c.width = m.width;
        if (c.height !== m.height) c.height = m.height;
      }
    } else if (m.kind === 'draw') {
      if (ctx && m.draw) replayDraw(ctx, m.draw);
      if (overlayCtx && m.overlay) replayDraw(overlayCtx, m.overlay);
      const ops = m.draw?.ops ?? null;
      const overlayOps = m.overlay?.ops ?? null;
      reply({ kind: 'drawn', id: m.id, ops, overlayOps }, [ops, overlayOps].flatMap((o) => (o ? [o.buffer] : [])));
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
