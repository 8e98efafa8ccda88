/**
 * Sizes of a partial model (preview.ts), apart from the format sniffing so that the page
 * (load.client.ts) can ask `mayPreview` without loading the importers.
 */

/**
 * Files smaller than this load fast enough without a preview, per format: about 2 s of the
 * worker's decoding at each format's measured speed. Below that the preview costs more than it
 * gives: it delays the whole model by its own decode and the page's handling of it. The figures
 * behind the thresholds are in docs/performance.md, "Figures behind constants".
 */
export const PREVIEW_MIN_BYTES: Readonly<Record<string, number>> = {
  nvtxc: 96 << 20,
  nvtxt: 64 << 20,
  'chrome-json': 256 << 20,
};

/**
 * Bytes of the slice: the file's first 4 MiB, whatever its size. The partial model is a first look
 * that should come soon, and its worker competes with the whole file's for the machine until it
 * is drawn, while the whole file waits on 'hold' through the slice model's finish(): with 4 MiB
 * instead of 1/16 (10 MiB of the 10M native capture) the first frame came sooner and the whole
 * capture too (docs/performance.md, "The whole 10M native capture in the page").
 */
export const PREVIEW_SLICE_BYTES = 4 << 20;

export function previewBytes(size: number): number {
  return Math.min(size, PREVIEW_SLICE_BYTES);
}

/** Whether a file of `size` bytes may get a partial model (the page asks before it starts a worker for one). */
export function mayPreview(size: number): boolean {
  return size >= Math.min(...Object.values(PREVIEW_MIN_BYTES));
}
