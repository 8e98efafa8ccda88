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
  nvtxc: 40 << 20,
  nvtxt: 64 << 20,
  'chrome-json': 192 << 20,
};

/** Bytes of the slice: 1/16 of the file, within [4 MiB, 16 MiB]. */
export function previewBytes(size: number): number {
  return Math.min(size, Math.max(4 << 20, Math.min(16 << 20, Math.floor(size / 16))));
}

/** Whether a file of `size` bytes may get a partial model (the page asks before it starts a worker for one). */
export function mayPreview(size: number): boolean {
  return size >= Math.min(...Object.values(PREVIEW_MIN_BYTES));
}
