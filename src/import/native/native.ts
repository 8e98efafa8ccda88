/** The importer of `.nvtxc` captures written by the nvtxview collector (collector/, docs/capture-format.md). */
import type { Importer } from '../importer.ts';
import { hasMagic, readFrames } from './chunks.ts';
import { NativeDecoder } from './decoder.ts';

export const nativeImporter: Importer = {
  id: 'nvtxc',
  label: 'nvtxview native capture (.nvtxc)',
  extensions: ['nvtxc'],
  sniff: hasMagic,
  async decode(input, ctx) {
    const { builder, signal } = ctx;
    const decoder = new NativeDecoder(builder);
    const frames = readFrames(
      input.chunks(),
      ({ major, minor }) => builder.setProperty('format version', `${major}.${minor}`),
      (problem) => decoder.skipped(problem),
      input.name,
    );
    for await (const frame of frames) {
      if (signal?.aborted) return;
      decoder.chunk(frame);
    }
    decoder.finish();
  },
};
