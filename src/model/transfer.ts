/** The buffers of a model, for postMessage transfer lists (no copy across the worker boundary). */
import type { Model } from './types.ts';

export function modelTransferables(model: Model): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) {
      buffers.add(value.buffer as ArrayBuffer);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const v of Object.values(value)) visit(v);
    }
  };
  visit(model.styles);
  visit(model.ranges);
  visit(model.marks);
  visit(model.counters);
  visit(model.payloads);
  visit(model.crossThreadEnds);
  if (model.correlation) visit(model.correlation);
  if (model.flows) visit(model.flows);
  if (model.rangeLod) visit(model.rangeLod);
  if (model.flaggedRanges) visit(model.flaggedRanges);
  if (model.extPayloads) visit(model.extPayloads);
  if (model.jsonText) visit(model.jsonText);
  visit({ markRefs: model.markRefs });
  for (const extra of Object.values(model as unknown as Record<string, unknown>)) {
    if (ArrayBuffer.isView(extra)) buffers.add(extra.buffer as ArrayBuffer);
  }
  return [...buffers];
}
