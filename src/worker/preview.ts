/**
 * A first look at a big file while it loads: a second load worker decodes the file's first slice
 * into a model of its own and posts it ('partial') while the first decodes the whole file
 * (load.client.ts), so the timeline shows the start of the capture within a second or two instead
 * of after the whole decode of a big file (docs/performance.md). The slice (its first 4 MiB,
 * previewSize.ts) costs that much more decoding, on the other core.
 *
 * Only formats whose prefix is itself a readable capture get a preview: native captures (chunks;
 * every thread stream starts near the top), Chrome JSON (events in file order) and NVTXT (lines).
 * An nsys export needs the whole SQLite file; a gzip stream is left alone.
 */
import { detectFormat } from '../import/formats.ts';
import { HEAD_BYTES } from '../import/importer.ts';
import { mayPreview, PREVIEW_MIN_BYTES, previewBytes } from './previewSize.ts';

export { mayPreview, PREVIEW_MIN_BYTES, previewBytes };

/** The slice of `file` to preview, or null when the file is small or its format has no meaningful prefix. */
export async function previewSlice(file: Blob, name: string): Promise<Blob | null> {
  if (!mayPreview(file.size)) return null;
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) return null;
  const importer = detectFormat(head, name);
  const minBytes = importer ? PREVIEW_MIN_BYTES[importer.id] : undefined;
  if (minBytes === undefined || file.size < minBytes) return null;
  return file.slice(0, previewBytes(file.size));
}
