/**
 * The message, color and category a payload gives its event, read without decoding the whole
 * payload: for schemas whose attribute entries sit at fixed offsets and are simple (a `char *` or an
 * embedded string flagged EVENT_MESSAGE, a COLOR_ARGB or CATEGORY value), the entries are read
 * directly, as `decodePayload` would read them. Anything else (nested schemas, other string forms,
 * offsets that depend on the data) returns undefined and the caller decodes the payload.
 */
import type { ExtMemoryInput, ExtPayloadInput } from '../../model/extPayloads.ts';
import { schemaPlan } from '../../payload/layout.ts';
import { indexRegistry } from '../../payload/registry.ts';
import { bufOf, decodeText, unitsBeforeNul } from '../../payload/scalars.ts';
import { EntryFlag, EntryType, type PayloadRegistry } from '../../payload/schema.ts';

/** How to read one attribute entry. */
type Step =
  | { kind: 'message-pointer'; offset: number }
  | { kind: 'message-inline'; offset: number; length: number }
  | { kind: 'color' | 'category'; offset: number };

export interface PayloadAttributesRead {
  message?: string;
  color?: number;
  category?: number;
}

/** Longest string read through a pointer (the collector copies at most 64 KiB). */
const MAX_TEXT = 64 * 1024;

export class AttributeReader {
  /** `${domain}:${schemaId}` -> steps, or null when the schema needs a full decode. */
  private readonly plans = new Map<string, Step[] | null>();

  constructor(private readonly registry: PayloadRegistry) {}

  /** Forgets the plans (new registrations can change layouts). */
  reset(): void {
    this.plans.clear();
  }

  private plan(domain: number, schemaId: number): Step[] | null {
    const key = `${domain}:${schemaId}`;
    let steps = this.plans.get(key);
    if (steps !== undefined) return steps;
    steps = [];
    const index = indexRegistry(this.registry);
    const schema = index.schema(domain, schemaId);
    if (schema) {
      const plan = schemaPlan(index, schema);
      for (const e of plan.entries) {
        const message = (e.entry.flags & EntryFlag.RoleMask) === EntryFlag.EventMessage;
        const type = e.entry.type;
        if (!message && type !== EntryType.Category && type !== EntryType.ColorArgb) {
          if (type >= 2 ** 24 && !index.enumDef(domain, type)) {
            steps = null; // a nested schema may carry attributes
            break;
          }
          continue;
        }
        const shape = e.shape;
        if ('error' in shape || e.fixedOffset === undefined || plan.error) {
          steps = null;
          break;
        }
        const t = shape.elem.kind === 'predefined' ? shape.elem.t : undefined;
        if (message && t?.kind === 'string' && shape.text === 1 && shape.storage === 'pointer' && shape.array === 'zeroTerminated') {
          steps.push({ kind: 'message-pointer', offset: e.fixedOffset });
        } else if (message && t?.kind === 'string' && shape.text === 1 && shape.storage === 'inline' && shape.array === 'fixed' && !shape.stringList) {
          steps.push({ kind: 'message-inline', offset: e.fixedOffset, length: shape.length });
        } else if (!message && shape.storage === 'inline' && shape.array === 'none') {
          steps.push({ kind: type === EntryType.ColorArgb ? 'color' : 'category', offset: e.fixedOffset });
        } else {
          steps = null;
          break;
        }
      }
    }
    this.plans.set(key, steps);
    return steps;
  }

  /**
   * The attributes the payloads give (later ones win), or undefined when one of them needs a full
   * decode. Payloads of unknown or predefined types give none.
   */
  read(domain: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[]): PayloadAttributesRead | undefined {
    const out: PayloadAttributesRead = {};
    for (const blob of blobs) {
      const steps = this.plan(domain, blob.schemaId);
      if (steps === null) return undefined;
      const bytes = blob.bytes;
      for (const s of steps) {
        if (s.kind === 'color' || s.kind === 'category') {
          if (s.offset + 4 > bytes.length) return undefined;
          out[s.kind] = (bytes[s.offset] | (bytes[s.offset + 1] << 8) | (bytes[s.offset + 2] << 16) | (bytes[s.offset + 3] << 24)) >>> 0;
        } else if (s.kind === 'message-inline') {
          if (s.offset + s.length > bytes.length) return undefined;
          out.message = decodeText(bufOf(bytes), s.offset, unitsBeforeNul(bytes, s.offset, s.length, 1), 1);
        } else {
          if (s.offset + 8 > bytes.length) return undefined;
          const address = u32At(bytes, s.offset) + u32At(bytes, s.offset + 4) * 4294967296;
          if (address === 0) continue;
          const text = textAt(address, blobs, memory);
          if (text === undefined) return undefined;
          out.message = text;
        }
      }
    }
    return out;
  }
}

function u32At(b: Uint8Array, off: number): number {
  return (b[off] | (b[off + 1] << 8) | (b[off + 2] << 16) | (b[off + 3] << 24)) >>> 0;
}

/**
 * The NUL-terminated UTF-8 text at `address` in copied memory or a sibling payload. Addresses are
 * compared as numbers: user-space addresses are below 2^47.
 */
function textAt(address: number, blobs: readonly ExtPayloadInput[], memory: readonly ExtMemoryInput[]): string | undefined {
  for (const m of memory) {
    const text = textIn(m, address);
    if (text !== undefined) return text;
  }
  for (const b of blobs) {
    const text = textIn(b, address);
    if (text !== undefined) return text;
  }
  return undefined;
}

function textIn(region: ExtPayloadInput | ExtMemoryInput, address: number): string | undefined {
  if (region.address === undefined) return undefined;
  const off = address - Number(region.address);
  if (off < 0 || off >= region.bytes.length) return undefined;
  const n = Math.min(region.bytes.length - off, MAX_TEXT);
  return decodeText(bufOf(region.bytes), off, unitsBeforeNul(region.bytes, off, n, 1), 1);
}
