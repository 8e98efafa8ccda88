/**
 * A Chrome trace's bytes decoded through the fast readers or the general ones
 * (`decodeChromeTrace`'s `fastPath`), in chunks of an odd size so that events straddle them: the
 * tests that compare the two readers' models share it.
 */
import { ModelBuilder } from '../../src/model/builder.ts';
import type { Model } from '../../src/model/types.ts';
import { CHROME_FORMAT_ID, decodeChromeTrace } from '../../src/import/chrome/chrome.ts';

export async function decodeChromeBytes(bytes: Uint8Array, fastPath: boolean, name = 'trace.json', chunkBytes = 65_521): Promise<Model> {
  const builder = new ModelBuilder({ fileName: name, format: CHROME_FORMAT_ID, byteSize: bytes.length });
  await decodeChromeTrace(
    {
      name,
      size: bytes.length,
      head: bytes.subarray(0, 64 * 1024),
      chunks: async function* () {
        for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
      },
    },
    { builder, options: {} },
    fastPath,
  );
  return builder.finish();
}
