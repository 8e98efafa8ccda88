/** Reading payload rows of the model (`Model.payloads`), which store 8 raw bytes per row. */
import { jsonTextAt } from './jsonText.ts';
import { PayloadType, type Model, type PayloadTypeCode } from './types.ts';

export type PayloadRead =
  | { type: PayloadTypeCode; value: number | bigint }
  | { type: typeof PayloadType.String | typeof PayloadType.Json; value: string };

const view = new DataView(new ArrayBuffer(8));

export function payloadValue(model: Model, index: number): PayloadRead | undefined {
  if (index < 0) return undefined;
  const type = model.payloads.type[index] as PayloadTypeCode;
  view.setFloat64(0, model.payloads.bits[index], true);
  switch (type) {
    case PayloadType.U64:
      return { type, value: view.getBigUint64(0, true) };
    case PayloadType.I64:
      return { type, value: view.getBigInt64(0, true) };
    case PayloadType.String:
      return { type, value: model.strings[view.getFloat64(0, true)] };
    case PayloadType.Json: {
      const ref = view.getFloat64(0, true);
      return { type, value: ref >= 0 ? model.strings[ref] : model.jsonText ? jsonTextAt(model.jsonText, -ref - 1) : '' };
    }
    default:
      return { type, value: view.getFloat64(0, true) };
  }
}

/**
 * The payload as a number (for statistics and grouping); strings and extended payloads (whose
 * `value` is only a row index; decode them with src/model/extPayloadReader.ts) give NaN.
 */
export function payloadNumber(model: Model, index: number): number {
  const p = payloadValue(model, index);
  if (!p || typeof p.value === 'string' || p.type === PayloadType.Ext) return NaN;
  return Number(p.value);
}

/** The payload as display text (extended payloads: decode them with src/model/extPayloadReader.ts). */
export function formatPayload(model: Model, index: number): string {
  const p = payloadValue(model, index);
  if (!p) return '';
  if (p.type === PayloadType.Ext) return 'extended payload';
  return typeof p.value === 'bigint' ? p.value.toString() : String(p.value);
}

/** JSON-ready payload: integers beyond 2^53 become decimal strings, JSON text is parsed. */
export function payloadJson(model: Model, index: number): unknown {
  const p = payloadValue(model, index);
  // Extended payloads hold a row index, not a value: src/payload/payloadText.ts has their JSON.
  if (!p || p.type === PayloadType.Ext) return null;
  if (typeof p.value === 'bigint') {
    return p.value <= BigInt(Number.MAX_SAFE_INTEGER) && p.value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(p.value)
      : p.value.toString();
  }
  if (p.type === PayloadType.Json && typeof p.value === 'string') {
    try {
      return JSON.parse(p.value);
    } catch {
      return p.value;
    }
  }
  return p.value;
}
