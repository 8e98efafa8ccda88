/**
 * One index space over the ranges and marks of a model, for tables and match lists that hold both
 * in one typed array: event e < rangeCount is range e, event e >= rangeCount is mark e - rangeCount.
 */
import type { Model } from '../model/types.ts';
import { identityOrder, sortOrder } from './sortOrder.ts';

export function eventCount(model: Model): number {
  return model.ranges.startNs.length + model.marks.timeNs.length;
}

/** The event of a range or mark index. */
export function eventOf(model: Model, kind: 'range' | 'mark', index: number): number {
  return kind === 'range' ? index : model.ranges.startNs.length + index;
}

/** Start time (a mark's time) of an event. */
export function eventStartNs(model: Model, e: number): number {
  const r = model.ranges.startNs.length;
  return e < r ? model.ranges.startNs[e] : model.marks.timeNs[e - r];
}

const byStartCache = new WeakMap<Model, Uint32Array>();

/**
 * Every event by start time (a mark's time), ties by index: computed once per model (a radix
 * sort), so tables and match lists in time order are one filtering pass over it.
 */
export function eventsByStart(model: Model): Uint32Array {
  const cached = byStartCache.get(model);
  if (cached) return cached;
  const r = model.ranges.startNs.length;
  const starts = new Float64Array(r + model.marks.timeNs.length);
  starts.set(model.ranges.startNs, 0);
  starts.set(model.marks.timeNs, r);
  const order = sortOrder(identityOrder(starts.length), starts);
  byStartCache.set(model, order);
  return order;
}

/** The store's selection form of an event. */
export function eventSelection(model: Model, capture: number, e: number): { kind: 'range' | 'mark'; capture: number; index: number } {
  const r = model.ranges.startNs.length;
  return e < r ? { kind: 'range', capture, index: e } : { kind: 'mark', capture, index: e - r };
}
