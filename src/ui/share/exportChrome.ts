/**
 * "Export → Chrome JSON" in the page: the capture as Chrome trace JSON (src/export/chromeJson.ts)
 * gathered piece by piece into a Blob, giving the page a turn between pieces so that a large
 * export does not freeze it, then handed to the browser as a download.
 */
import { chromeTraceFileName, chromeTraceJson } from '../../export/chromeJson.ts';
import type { Model } from '../../model/types.ts';

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The export as a Blob (the string pieces are stored as UTF-8 by the Blob). */
export async function chromeTraceBlob(model: Model, onPiece: (chars: number) => void = () => {}): Promise<Blob> {
  const pieces: string[] = [];
  let chars = 0;
  for (const piece of chromeTraceJson(model)) {
    pieces.push(piece);
    chars += piece.length;
    onPiece(chars);
    await nextTurn();
  }
  return new Blob(pieces, { type: 'application/json' });
}

/** Saves a Blob under a file name through a temporary link. */
export function downloadBlob(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; a minute leaves slow browsers room.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function exportChromeTrace(model: Model): Promise<void> {
  downloadBlob(await chromeTraceBlob(model), chromeTraceFileName(model));
}
