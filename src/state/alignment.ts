/**
 * Aligning captures that do not share a clock (pure): the N-th instance of a named range in one
 * capture is placed at the same time as the N-th instance of that name in another.
 */
import type { Model } from '../model/types.ts';

/** Name of a range. */
export function rangeName(model: Model, index: number): string {
  return model.strings[model.styles.name[model.ranges.style[index]]];
}

/** Start times (the capture's own ns) of every range named `name`, ascending, with their indices. */
function instancesOf(model: Model, name: string): { startNs: number; index: number }[] {
  const { style, startNs } = model.ranges;
  const names = model.styles.name;
  const wanted = model.strings.indexOf(name);
  const out: { startNs: number; index: number }[] = [];
  if (wanted < 0) return out;
  for (let i = 0; i < style.length; i++) {
    // Strings may repeat in the table: compare text when the id differs.
    const id = names[style[i]];
    if (id === wanted || model.strings[id] === name) out.push({ startNs: startNs[i], index: i });
  }
  out.sort((a, b) => a.startNs - b.startNs || a.index - b.index);
  return out;
}

/** Which instance (0-based, by start time) of its name a range is. */
export function instanceOrdinal(model: Model, index: number): number {
  return instancesOf(model, rangeName(model, index)).findIndex((x) => x.index === index);
}

/** How many ranges of a model carry `name`. */
export function instanceCount(model: Model, name: string): number {
  return instancesOf(model, name).length;
}

/** The `ordinal`-th instance (by start time) of the ranges named `name`, or -1 when there are fewer. */
export function nthInstance(model: Model, name: string, ordinal: number): number {
  return instancesOf(model, name)[ordinal]?.index ?? -1;
}

/**
 * The offset that puts `other`'s instance of the same name and ordinal at the time the reference
 * range has on the shared axis, or null when `other` has no such instance.
 */
export function offsetToAlign(reference: { model: Model; offsetNs: number }, rangeIndex: number, other: Model): number | null {
  const ordinal = instanceOrdinal(reference.model, rangeIndex);
  const match = nthInstance(other, rangeName(reference.model, rangeIndex), ordinal);
  if (match < 0) return null;
  return reference.model.ranges.startNs[rangeIndex] + reference.offsetNs - other.ranges.startNs[match];
}
