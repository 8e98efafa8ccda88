/**
 * Semantics structs (nvToolsExtSemantics*.h) as a collector copies them, to `SemanticsDef`. A
 * collector that stores each element of a chain as its raw struct bytes (header included, Linux
 * x86-64 layout) plus the deep-copied `unit` text can turn them into plain data with this.
 *
 *   nvtxSemanticsHeader_t  { u32 structSize; u16 semanticId; u16 version; ptr next; }   16 bytes
 *   nvtxSemanticsScope_t   { header; u64 scopeId; }                                       24 bytes
 *   nvtxSemanticsTime_t    { header; u64 timeDomainId; }                                  24 bytes
 *   nvtxSemanticsCounter_t { header; u64 flags; ptr unit; u64 unitScaleNumerator;
 *                            u64 unitScaleDenominator; i64 limitType; union min; union max; } 72 bytes
 */
import { CounterLimitType, SemanticId, type SemanticsDef } from './schema.ts';

const HEADER_SIZE = 16;

/**
 * One semantics struct (header included) to plain data. Fields beyond the bytes given or beyond the
 * struct's own `structSize` take their "unused" defaults; unknown ids are kept as 'unknown'.
 */
export function semanticsFromStruct(bytes: Uint8Array, unit?: string): SemanticsDef {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER_SIZE) return { kind: 'unknown', semanticId: -1, version: 0, structSize: bytes.length };
  const structSize = v.getUint32(0, true);
  const semanticId = v.getUint16(4, true);
  const version = v.getUint16(6, true);
  const end = Math.min(bytes.length, structSize);
  const u64 = (off: number, fallback: number) => (off + 8 <= end ? Number(v.getBigUint64(off, true)) : fallback);
  switch (semanticId) {
    case SemanticId.Scope:
      return { kind: 'scope', scopeId: u64(16, 0) };
    case SemanticId.Time:
      return { kind: 'time', timeDomainId: u64(16, 0) };
    case SemanticId.Counter: {
      const limitType = 48 + 8 <= end ? Number(v.getBigInt64(48, true)) : CounterLimitType.Undefined;
      const limit = (off: number): number | undefined => {
        if (off + 8 > end) return undefined;
        switch (limitType) {
          case CounterLimitType.I64:
            return Number(v.getBigInt64(off, true));
          case CounterLimitType.U64:
            return Number(v.getBigUint64(off, true));
          case CounterLimitType.F64:
            return v.getFloat64(off, true);
          default:
            return undefined;
        }
      };
      const out: SemanticsDef = {
        kind: 'counter',
        flags: u64(16, 0),
        unitScaleNumerator: u64(32, 1),
        unitScaleDenominator: u64(40, 1),
        limitType,
      };
      if (unit) out.unit = unit;
      const min = limit(56);
      const max = limit(64);
      if (min !== undefined) out.min = min;
      if (max !== undefined) out.max = max;
      return out;
    }
    default:
      return { kind: 'unknown', semanticId, version, structSize };
  }
}
