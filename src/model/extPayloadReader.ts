/** Extended payloads of a model event (`PayloadType.Ext` rows), decoded for the panels and the CLI. */
import { payloadJson } from './payload.ts';
import { ExtPayloadRole, PayloadType, type Model } from './types.ts';
import { decodeEventPayloads, type DecodeOptions } from '../payload/decode.ts';
import type { DecodedPayload } from '../payload/decoded.ts';
import { eventPayloadsJson, payloadSummary } from '../payload/payloadText.ts';
import { emptyRegistry } from '../payload/registry.ts';
import type { MemoryRegion, PayloadBlob } from '../payload/schema.ts';

/** The stored blobs of one event, as the collector captured them. */
export interface ModelPayloadBlobs {
  /** Model domain index of the payloads. */
  domain: number;
  /** Payloads given with the mark/push/start/deferred event, in call order. */
  begin: PayloadBlob[];
  /** Payloads given at pop/end. */
  end: PayloadBlob[];
  /** Deep-copied pointee memory. */
  memory: MemoryRegion[];
  /** What OFFSET_FROM_BASE entries count from when not the payload (an event batch's flex data). */
  offsetBase?: MemoryRegion;
}

export interface ModelPayloads extends ModelPayloadBlobs {
  decodedBegin: DecodedPayload[];
  decodedEnd: DecodedPayload[];
}

/** True if payload row `payloadIndex` is an extended payload stored in `model.extPayloads`. */
export function isExtPayload(model: Model, payloadIndex: number): boolean {
  return payloadIndex >= 0 && model.payloads.type[payloadIndex] === PayloadType.Ext && model.extPayloads !== undefined;
}

/** The blobs of an event's extended payload, or undefined when the payload is not one. */
export function modelPayloadBlobs(model: Model, payloadIndex: number): ModelPayloadBlobs | undefined {
  if (!isExtPayload(model, payloadIndex)) return undefined;
  const ext = model.extPayloads!;
  const out: ModelPayloadBlobs = { domain: 0, begin: [], end: [], memory: [] };
  const rows = ext.schema.length;
  let first = true;
  // The chain is acyclic by construction; the step bound only guards against a corrupted model.
  for (let r = model.payloads.bits[payloadIndex], steps = 0; r >= 0 && r < rows && steps < rows; r = ext.next[r], steps++) {
    const bytes = ext.bytes.subarray(ext.offset[r], ext.offset[r] + ext.length[r]);
    const address = ext.address[r] !== 0 ? ext.address[r] : undefined;
    if (ext.role[r] === ExtPayloadRole.Memory) {
      if (address !== undefined) out.memory.push({ address, bytes });
      continue;
    }
    if (ext.role[r] === ExtPayloadRole.OffsetBase) {
      out.offsetBase = { address: address ?? 0, bytes };
      continue;
    }
    if (first) {
      out.domain = ext.domain[r];
      first = false;
    }
    const blob: PayloadBlob = { schemaId: ext.schema[r], bytes, ...(address !== undefined ? { address } : {}) };
    (ext.role[r] === ExtPayloadRole.End ? out.end : out.begin).push(blob);
  }
  return out;
}

/**
 * Decodes an event's extended payloads (begin and pop/end) against `model.payloadRegistry`.
 * Undefined when the payload row is not an extended payload.
 */
export function decodeModelPayload(
  model: Model,
  payloadIndex: number,
  options: Pick<DecodeOptions, 'maxElements' | 'maxDepth'> = {},
): ModelPayloads | undefined {
  const blobs = modelPayloadBlobs(model, payloadIndex);
  if (!blobs) return undefined;
  const registry = model.payloadRegistry ?? emptyRegistry();
  const base = blobs.offsetBase;
  const memory = base && base.address !== 0 ? [...blobs.memory, base] : blobs.memory;
  const common = { ...options, domain: blobs.domain, memory, ...(base ? { offsetBase: base.bytes } : {}) };
  // End payloads are their own nvtxPayloadData_t array (payload indices refer to it), but may
  // point into the begin payloads.
  const beginMemory = blobs.begin.flatMap((b) => (b.address !== undefined ? [{ address: b.address, bytes: b.bytes }] : []));
  return {
    ...blobs,
    decodedBegin: decodeEventPayloads(registry, blobs.begin, common),
    decodedEnd: decodeEventPayloads(registry, blobs.end, { ...common, memory: [...memory, ...beginMemory] }),
  };
}

/**
 * JSON of any payload row (for `nvtxview events --json`): extended payloads as field name -> value
 * (see `eventPayloadsJson`), core payloads as their value, no payload as null.
 */
export function modelPayloadJson(model: Model, payloadIndex: number): unknown {
  const ext = decodeModelPayload(model, payloadIndex);
  return ext ? eventPayloadsJson(ext.decodedBegin, ext.decodedEnd) : payloadJson(model, payloadIndex);
}

/** One line of text for any payload row (tables): `name=value, …` for extended payloads. */
export function modelPayloadSummary(model: Model, payloadIndex: number, maxLength = 160): string {
  const ext = decodeModelPayload(model, payloadIndex);
  if (!ext) {
    const v = payloadJson(model, payloadIndex);
    return v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return payloadSummary([...ext.decodedBegin, ...ext.decodedEnd], maxLength);
}
