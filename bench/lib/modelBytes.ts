/** Model memory figures shared by the Node and browser benchmarks. */
import type { Model } from '../../src/model/types.ts';

/** Bytes of the range table: its columns plus the level-of-detail summaries drawn from it. */
export function rangeBytes(model: Model): number {
  let bytes = 0;
  for (const column of Object.values(model.ranges)) bytes += (column as ArrayBufferView).byteLength;
  const lod = model.rangeLod;
  if (lod) bytes += lod.maxDur.byteLength + lod.maxStep.byteLength + lod.style.byteLength;
  return bytes;
}
