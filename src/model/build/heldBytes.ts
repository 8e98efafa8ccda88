/**
 * The bytes a part of the builder holds in typed arrays (growable columns count what they
 * allocated, filled or not), found by walking its own fields and, `depth` levels down, the fields
 * of the objects it holds. Arrays and maps are not walked: the builder keeps its columns in
 * objects, and its arrays (strings, per-row lists) are counted by their owners or are small.
 * Only for a load's memory budget (src/import/pipeline.ts), checked a few times per MiB decoded.
 */
export function typedBytes(holder: object, depth = 1): number {
  let bytes = 0;
  for (const value of Object.values(holder)) {
    if (value === null || typeof value !== 'object') continue;
    if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    else if (typeof (value as { capacityBytes?: unknown }).capacityBytes === 'number') bytes += (value as { capacityBytes: number }).capacityBytes;
    else if (depth > 0 && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Set)) bytes += typedBytes(value, depth - 1);
  }
  return bytes;
}

/** Thrown by `ModelBuilder.checkBudget` when the model being built holds more than the load's budget. */
export class ModelOverBudget extends Error {
  constructor(
    readonly heldBytes: number,
    readonly budgetBytes: number,
  ) {
    super(`the model reached ${mib(heldBytes)} MB, over its ${mib(budgetBytes)} MB memory budget`);
    this.name = 'ModelOverBudget';
  }
}

/**
 * Whether `e` says memory ran out: the budget, or an allocation the JavaScript engine refused
 * (a typed array or buffer too large for what the browser will give this page).
 */
export function isOutOfMemory(e: unknown): e is Error {
  if (e instanceof ModelOverBudget) return true;
  return e instanceof RangeError && /allocation failed|Invalid typed array length|Array buffer allocation|Out of memory|Invalid array buffer length/i.test(e.message);
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(0);
}
