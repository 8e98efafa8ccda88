/**
 * Payload rows while building: one row per payload (type + 8 bytes), JSON texts given as bytes
 * kept as bytes (`JsonTextStore`), extended payloads in their own table (`ExtPayloadTable`).
 */
import type { PayloadRegistry } from '../../payload/schema.ts';
import { ExtPayloadTable, type ExtMemoryInput, type ExtPayloadInput } from '../extPayloads.ts';
import { f64, u8, type GrowthPlan } from '../growable.ts';
import { JsonTextStore } from '../jsonText.ts';
import { PayloadType, type Model, type PayloadTypeCode } from '../types.ts';
import type { PayloadValue, SourceLocation } from './inputs.ts';
import type { IssueLog } from './issues.ts';
import type { NameTable } from './names.ts';

export class PayloadStore {
  private readonly type: ReturnType<typeof u8>;
  private readonly bits: ReturnType<typeof f64>;
  private readonly scratch = new DataView(new ArrayBuffer(8));
  private ext: ExtPayloadTable | undefined;
  private jsonText: JsonTextStore | undefined;
  private registry: PayloadRegistry | undefined;

  constructor(
    private readonly names: NameTable,
    private readonly issues: IssueLog,
    growth?: GrowthPlan,
  ) {
    this.type = u8(64, growth);
    this.bits = f64(64, growth);
  }

  /** The payload row of `p`, or -1 for none. */
  rowOf(p: PayloadValue | undefined): number {
    if (!p) return -1;
    if (p.type === PayloadType.Json && p.value === undefined) {
      // JSON bytes (one per Chrome event with args): the row is a plain negative number.
      this.jsonText ??= new JsonTextStore();
      const row = this.type.length;
      this.type.push(PayloadType.Json);
      this.bits.push(-1 - this.jsonText.add(p.bytes, p.start, p.end));
      return row;
    }
    const v = this.scratch;
    switch (p.type) {
      case PayloadType.U64:
      case PayloadType.I64: {
        // The same 8 bytes either way: setBigInt64 wraps modulo 2^64, and integers below 2^53
        // are written as two halves without making a BigInt.
        const x = p.value;
        if (typeof x === 'bigint') v.setBigInt64(0, x, true);
        else if (Number.isSafeInteger(x)) {
          const hi = Math.floor(x / 4294967296);
          v.setUint32(0, x - hi * 4294967296, true);
          v.setInt32(4, hi, true);
        } else v.setBigInt64(0, BigInt(x), true);
        break;
      }
      case PayloadType.String:
        v.setFloat64(0, this.names.intern(p.value), true);
        break;
      case PayloadType.Json:
        // JSON payloads (Chrome args, nsys jsonText) are nearly always unique: not worth the intern map.
        v.setFloat64(0, this.names.addUnique(p.value), true);
        break;
      default:
        v.setFloat64(0, p.value, true);
    }
    const index = this.type.length;
    this.type.push(p.type as PayloadTypeCode);
    this.bits.push(v.getFloat64(0, true));
    return index;
  }

  /** See `ModelBuilder.extPayload`. */
  extPayload(
    domain: number,
    blobs: readonly ExtPayloadInput[],
    memory?: readonly ExtMemoryInput[],
    offsetBase?: ExtMemoryInput | number,
  ): PayloadValue | undefined {
    this.ext ??= new ExtPayloadTable();
    const head = this.ext.add(domain, blobs, memory, offsetBase);
    return head < 0 ? undefined : { type: PayloadType.Ext, value: head };
  }

  /** See `ModelBuilder.extSharedOffsetBase`. */
  extSharedOffsetBase(domain: number, base: ExtMemoryInput): number {
    this.ext ??= new ExtPayloadTable();
    return this.ext.addShared(domain, base);
  }

  setRegistry(registry: PayloadRegistry): void {
    this.registry = registry;
  }

  /** Payload row of a range after its pop/end payload `end` joined its begin payload `begin`. */
  joinEnd(begin: number, end: number, where?: SourceLocation): number {
    if (end < 0) return begin;
    const endIsExt = this.type.get(end) === PayloadType.Ext;
    if (endIsExt) this.ext!.markEnd(this.bits.get(end));
    if (begin < 0) return end;
    if (endIsExt && this.type.get(begin) === PayloadType.Ext) {
      this.ext!.link(this.bits.get(begin), this.bits.get(end));
      return begin;
    }
    this.issues.report('warning', 'a range carries a core payload and an end/pop payload; only the first is kept', where);
    return begin;
  }

  /** `Model.payloads`. */
  columns(): Model['payloads'] {
    return { type: this.type.release(), bits: this.bits.release() };
  }

  /** Sets `extPayloads`, `jsonText` and `payloadRegistry` on the model when there are any. */
  finishInto(model: Model): void {
    if (this.ext && this.ext.size > 0) model.extPayloads = this.ext.finish();
    if (this.jsonText) model.jsonText = this.jsonText.finish();
    if (this.registry) model.payloadRegistry = this.registry;
  }
}
