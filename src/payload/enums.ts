/** Enum values to names: exact matches first, flag enums as `A | B` (plus the hex of unknown bits). */
import type { EnumDef } from './schema.ts';

/** The enum entry value as the unsigned integer of the enum's width. */
function unsignedValue(value: number, bits: number): bigint {
  return BigInt.asUintN(bits, BigInt(Math.trunc(value)));
}

/** True when some entry is negative: the enum's storage reads as signed. */
export function enumIsSigned(def: EnumDef): boolean {
  return def.entries.some((e) => e.value < 0);
}

/**
 * Name of `value` (read unsigned from `def.size` bytes), or undefined when nothing matches. Flag
 * entries are tried in registration order; bits no flag covers are appended as hex.
 */
export function enumName(def: EnumDef, value: bigint): string | undefined {
  const bits = def.size * 8;
  const v = BigInt.asUintN(bits, value);
  for (const e of def.entries) if (unsignedValue(e.value, bits) === v) return e.name;
  const names: string[] = [];
  let rest = v;
  for (const e of def.entries) {
    if (!e.isFlag) continue;
    const f = unsignedValue(e.value, bits);
    if (f !== 0n && (rest & f) === f) {
      names.push(e.name);
      rest &= ~f;
    }
  }
  if (names.length === 0) return undefined;
  if (rest !== 0n) names.push(`0x${rest.toString(16)}`);
  return names.join(' | ');
}
