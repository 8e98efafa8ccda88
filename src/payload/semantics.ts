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
import { CounterFlag, CounterLimitType, SemanticId, type CounterSemantics, type SemanticsDef } from './schema.ts';
import type { PredefinedType } from './entryTypes.ts';

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

/** How counter semantics turn a raw value into its display value: `scaling(raw)` below. */
export interface CounterScaling {
  /** Fixed-point normalisation divisor (1 when not normalised). */
  divisor: number;
  /** Normalised signed values stop at -1 (the most negative integer is one past it). */
  clampAtMinusOne: boolean;
  /** unitScaleNumerator / unitScaleDenominator. */
  scale: number;
}

/**
 * NORMALIZE maps an integer type's range to [0, 1] (unsigned) or [-1, 1] (signed); then the value
 * is scaled by unitScaleNumerator / unitScaleDenominator (0 read as 1: "1 if not used").
 */
export function counterScaling(sem: CounterSemantics | undefined, type?: PredefinedType): CounterScaling {
  if (!sem) return { divisor: 1, clampAtMinusOne: false, scale: 1 };
  let divisor = 1;
  let clampAtMinusOne = false;
  if (sem.flags & CounterFlag.Normalize && type && (type.kind === 'int' || type.kind === 'uint')) {
    const bits = type.size * 8;
    divisor = type.kind === 'int' ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    clampAtMinusOne = type.kind === 'int';
  }
  return { divisor, clampAtMinusOne, scale: (sem.unitScaleNumerator || 1) / (sem.unitScaleDenominator || 1) };
}

export function applyScaling(raw: number, s: CounterScaling): number {
  let v = raw / s.divisor;
  if (s.clampAtMinusOne && v < -1) v = -1;
  return v * s.scale;
}

/** Counter value for display: normalised fixed point (when asked), then scaled. */
export function counterDisplay(raw: number | bigint, sem: CounterSemantics | undefined, type?: PredefinedType): number {
  return applyScaling(Number(raw), counterScaling(sem, type));
}

export type CounterValueType = 'absolute' | 'delta' | 'deltaSinceStart';
export type CounterInterpolation = 'point' | 'sinceLast' | 'untilNext' | 'linear';

/** The fields of counter semantics flags, spelled out for the counter tracks. */
export interface CounterTraits {
  /** Absent: not specified (a tool treats it as absolute). */
  valueType?: CounterValueType;
  /** Absent: not specified. */
  interpolation?: CounterInterpolation;
  normalize: boolean;
  /** Limits to apply "softly" when graphing, only those the flags ask for. */
  min?: number;
  max?: number;
}

export function counterTraits(sem: CounterSemantics): CounterTraits {
  const valueTypes: (CounterValueType | undefined)[] = [undefined, 'absolute', 'delta', 'deltaSinceStart'];
  const interpolations: (CounterInterpolation | undefined)[] = [undefined, 'point', 'sinceLast', 'untilNext', 'linear'];
  const out: CounterTraits = { normalize: (sem.flags & CounterFlag.Normalize) !== 0 };
  const valueType = valueTypes[(sem.flags & CounterFlag.ValueTypeMask) >> 4];
  const interpolation = interpolations[(sem.flags & CounterFlag.InterpolationMask) >> 8];
  if (valueType) out.valueType = valueType;
  if (interpolation) out.interpolation = interpolation;
  if (sem.flags & CounterFlag.LimitMin && sem.min !== undefined) out.min = sem.min;
  if (sem.flags & CounterFlag.LimitMax && sem.max !== undefined) out.max = sem.max;
  return out;
}
