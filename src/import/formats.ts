/**
 * The ordered table of importers. Detection walks it and asks each `sniff` about the first bytes;
 * the first match wins, so more specific formats come first. File name endings are only consulted
 * when no importer recognises the bytes.
 */
import type { Importer } from './importer.ts';
import { nativeImporter } from './native/native.ts';
import { nvtxtImporter } from './nvtxt/nvtxt.ts';
import { nsysImporter } from './nsys/nsys.ts';
import { chromeImporter } from './chrome/chrome.ts';

export const importers: readonly Importer[] = [nativeImporter, nsysImporter, chromeImporter, nvtxtImporter];

export function detectFormat(head: Uint8Array, fileName: string): Importer | undefined {
  const bySniff = importers.find((imp) => imp.sniff(head));
  if (bySniff) return bySniff;
  const ext = fileName.toLowerCase().replace(/\.gz$/, '').split('.').pop() ?? '';
  return importers.find((imp) => imp.extensions.includes(ext));
}
