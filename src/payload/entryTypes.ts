/**
 * The predefined entry types: C name, size and alignment on Linux x86-64 (gcc/clang, LP64,
 * SysV ABI), and how the decoder reads them. Types 1..27 can be overridden by the type table the
 * program passed to the tool (`PayloadRegistry.typeInfo`).
 */
import { EntryType, type TypeInfoDef } from './schema.ts';

export type ScalarKind =
  /** Two's complement integer (little-endian). */
  | 'int'
  | 'uint'
  /** IEEE 754 binary32/64 (`float`, `double`, `FLOAT32`, `FLOAT64`). */
  | 'float'
  | 'float16'
  | 'bfloat16'
  /** TensorFloat-32: a binary32 whose 13 low mantissa bits are not used. */
  | 'tf32'
  /** x87 80-bit extended precision, stored in 16 bytes (`long double`). */
  | 'x87'
  /** IEEE 754 binary128. */
  | 'float128'
  /** A pointer-sized integer shown in hex. */
  | 'address'
  /** Raw byte, shown in hex. */
  | 'byte'
  /** A character type: a scalar is one character, an array is a string. */
  | 'char'
  /** A string type (`CSTRING*`): `size` is the code unit. */
  | 'string'
  /** `nvtxStringHandle_t`, resolved through the registered strings. */
  | 'stringHandle'
  /** The selector of a union with internal selector. */
  | 'selector';

/** What an entry of this type means for the event (NVTX core attribute or scope). */
export type AttributeRole = 'category' | 'color' | 'scope' | 'pid' | 'tid';

export interface PredefinedType {
  id: number;
  /** C spelling, for type names in the panel ("int32_t", "long double"). */
  name: string;
  size: number;
  align: number;
  kind: ScalarKind;
  /** Arrays of this type read as text with this code-unit width (char types and strings). */
  textUnit?: 1 | 2 | 4;
  role?: AttributeRole;
}

/**
 * Width of a `UNION_SELECTOR` entry when its `arrayOrUnionDetail` does not give one (1, 2, 4 or 8).
 * The header defines no width for this type; 4 bytes is what a C `int` or `enum` tag takes, the
 * usual discriminator of a union whose members share a leading tag.
 */
export const DEFAULT_SELECTOR_SIZE = 4;

const T = EntryType;
const rows: PredefinedType[] = [
  { id: T.Char, name: 'char', size: 1, align: 1, kind: 'int', textUnit: 1 },
  { id: T.UChar, name: 'unsigned char', size: 1, align: 1, kind: 'uint' },
  { id: T.Short, name: 'short', size: 2, align: 2, kind: 'int' },
  { id: T.UShort, name: 'unsigned short', size: 2, align: 2, kind: 'uint' },
  { id: T.Int, name: 'int', size: 4, align: 4, kind: 'int' },
  { id: T.UInt, name: 'unsigned int', size: 4, align: 4, kind: 'uint' },
  { id: T.Long, name: 'long', size: 8, align: 8, kind: 'int' },
  { id: T.ULong, name: 'unsigned long', size: 8, align: 8, kind: 'uint' },
  { id: T.LongLong, name: 'long long', size: 8, align: 8, kind: 'int' },
  { id: T.ULongLong, name: 'unsigned long long', size: 8, align: 8, kind: 'uint' },
  { id: T.Int8, name: 'int8_t', size: 1, align: 1, kind: 'int' },
  { id: T.UInt8, name: 'uint8_t', size: 1, align: 1, kind: 'uint' },
  { id: T.Int16, name: 'int16_t', size: 2, align: 2, kind: 'int' },
  { id: T.UInt16, name: 'uint16_t', size: 2, align: 2, kind: 'uint' },
  { id: T.Int32, name: 'int32_t', size: 4, align: 4, kind: 'int' },
  { id: T.UInt32, name: 'uint32_t', size: 4, align: 4, kind: 'uint' },
  { id: T.Int64, name: 'int64_t', size: 8, align: 8, kind: 'int' },
  { id: T.UInt64, name: 'uint64_t', size: 8, align: 8, kind: 'uint' },
  { id: T.Float, name: 'float', size: 4, align: 4, kind: 'float' },
  { id: T.Double, name: 'double', size: 8, align: 8, kind: 'float' },
  { id: T.LongDouble, name: 'long double', size: 16, align: 16, kind: 'x87' },
  { id: T.Size, name: 'size_t', size: 8, align: 8, kind: 'uint' },
  { id: T.Address, name: 'void *', size: 8, align: 8, kind: 'address' },
  { id: T.WChar, name: 'wchar_t', size: 4, align: 4, kind: 'char', textUnit: 4 },
  { id: T.Char8, name: 'char8_t', size: 1, align: 1, kind: 'char', textUnit: 1 },
  { id: T.Char16, name: 'char16_t', size: 2, align: 2, kind: 'char', textUnit: 2 },
  { id: T.Char32, name: 'char32_t', size: 4, align: 4, kind: 'char', textUnit: 4 },
  { id: T.Byte, name: 'byte', size: 1, align: 1, kind: 'byte' },
  { id: T.Int128, name: '__int128', size: 16, align: 16, kind: 'int' },
  { id: T.UInt128, name: 'unsigned __int128', size: 16, align: 16, kind: 'uint' },
  { id: T.Float16, name: 'float16', size: 2, align: 2, kind: 'float16' },
  { id: T.Float32, name: 'float32', size: 4, align: 4, kind: 'float' },
  { id: T.Float64, name: 'float64', size: 8, align: 8, kind: 'float' },
  { id: T.Float128, name: 'float128', size: 16, align: 16, kind: 'float128' },
  { id: T.BF16, name: 'bfloat16', size: 2, align: 2, kind: 'bfloat16' },
  { id: T.TF32, name: 'tf32', size: 4, align: 4, kind: 'tf32' },
  { id: T.Category, name: 'category', size: 4, align: 4, kind: 'uint', role: 'category' },
  { id: T.ColorArgb, name: 'color (ARGB)', size: 4, align: 4, kind: 'uint', role: 'color' },
  { id: T.ScopeId, name: 'scope id', size: 8, align: 8, kind: 'uint', role: 'scope' },
  { id: T.PidUInt32, name: 'pid (uint32)', size: 4, align: 4, kind: 'uint', role: 'pid' },
  { id: T.PidUInt64, name: 'pid (uint64)', size: 8, align: 8, kind: 'uint', role: 'pid' },
  { id: T.TidUInt32, name: 'tid (uint32)', size: 4, align: 4, kind: 'uint', role: 'tid' },
  { id: T.TidUInt64, name: 'tid (uint64)', size: 8, align: 8, kind: 'uint', role: 'tid' },
  { id: T.CString, name: 'char string', size: 1, align: 1, kind: 'string', textUnit: 1 },
  { id: T.CStringUtf8, name: 'UTF-8 string', size: 1, align: 1, kind: 'string', textUnit: 1 },
  { id: T.CStringUtf16, name: 'UTF-16 string', size: 2, align: 2, kind: 'string', textUnit: 2 },
  { id: T.CStringUtf32, name: 'UTF-32 string', size: 4, align: 4, kind: 'string', textUnit: 4 },
  { id: T.RegisteredStringHandle, name: 'nvtxStringHandle_t', size: 8, align: 8, kind: 'stringHandle' },
  { id: T.UnionSelector, name: 'union selector', size: DEFAULT_SELECTOR_SIZE, align: DEFAULT_SELECTOR_SIZE, kind: 'selector' },
];

const byId = new Map<number, PredefinedType>(rows.map((r) => [r.id, r]));

/** Largest id with an entry in the program's type table (`NVTX_PAYLOAD_ENTRY_TYPE_INFO_ARRAY_SIZE - 1`). */
const TYPE_TABLE_LAST = EntryType.Char32;

/**
 * The predefined type `id`, with size and alignment from the program's table when it has a usable
 * row for it (types 1..27; {0,0} rows, e.g. char8_t in pre-C23 programs, keep the x86-64 values).
 */
export function predefinedType(id: number, table?: readonly TypeInfoDef[]): PredefinedType | undefined {
  const base = byId.get(id);
  if (!base || !table || id > TYPE_TABLE_LAST) return base;
  const row = table[id];
  if (!row || row.size <= 0 || row.align <= 0) return base;
  if (row.size === base.size && row.align === base.align) return base;
  return { ...base, size: row.size, align: row.align };
}

/** Pointers (`POINTER` entries, `OFFSET_FROM_*` entries, string pointers) on Linux x86-64. */
export const POINTER_SIZE = 8;

/** The x86-64 type table as a collector would capture it from a gcc-built program (for tests and docs). */
export function x8664TypeTable(): TypeInfoDef[] {
  const table: TypeInfoDef[] = [{ size: TYPE_TABLE_LAST + 1, align: 4 }];
  for (let id = 1; id <= TYPE_TABLE_LAST; id++) {
    const t = byId.get(id)!;
    table.push({ size: t.size, align: t.align });
  }
  return table;
}
