/**
 * Decoded payloads as text (panels, tables) and as JSON (`nvtxview events --json`): field name ->
 * value, enums by name, arrays as arrays, nested schemas as objects, integers beyond 2^53 as
 * decimal strings, addresses as hex strings.
 */
import type { DecodedField, DecodedPayload, FieldValue } from './decoded.ts';

// ------------------------------------------------------------------ JSON

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function jsonNumber(v: number | bigint, display?: DecodedField['display']): Json {
  if (display === 'hex' || display === 'color') return hexText(v, display === 'color' ? 8 : 0);
  if (typeof v === 'bigint') {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
  }
  // JSON has no NaN or infinities.
  return Number.isFinite(v) ? v : String(v);
}

function jsonValue(v: FieldValue | undefined, display?: DecodedField['display']): Json {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map((x) => jsonValue(x, display));
  if (typeof v === 'number' || typeof v === 'bigint') return jsonNumber(v, display);
  return v;
}

const isElement = (f: DecodedField) => f.name.startsWith('[');

/** JSON of one field: its value, an object for nested schemas, an array for arrays of them. */
export function fieldJson(f: DecodedField, includeHidden = true): Json {
  let out: Json;
  if (f.children !== undefined) {
    out = f.children.length > 0 && f.children.every(isElement)
      ? f.children.map((c) => fieldJson(c, includeHidden))
      : fieldsJson(f.children, includeHidden);
  } else {
    out = jsonValue(f.value, f.display);
  }
  if (!f.error && !f.truncated) return out;
  const wrapped: { [key: string]: Json } = {};
  if (f.error) wrapped['@error'] = f.error;
  if (f.raw !== undefined) wrapped['@raw'] = f.raw;
  if (f.truncated) wrapped['@truncated'] = { shown: f.truncated.shown, total: f.truncated.total };
  if (out !== null && !(typeof out === 'object' && !Array.isArray(out) && Object.keys(out).length === 0)) wrapped.value = out;
  return wrapped;
}

function uniqueKey(obj: Record<string, Json>, name: string): string {
  if (!(name in obj)) return name;
  let i = 2;
  while (`${name}#${i}` in obj) i++;
  return `${name}#${i}`;
}

function fieldsJson(fields: readonly DecodedField[], includeHidden: boolean, into: { [key: string]: Json } = {}): { [key: string]: Json } {
  for (const f of fields) {
    if (f.hidden && !includeHidden) continue;
    into[uniqueKey(into, f.name)] = fieldJson(f, includeHidden);
  }
  return into;
}

/** JSON of one payload: its fields by name; `@error`/`@raw` when it does not match its schema. */
export function payloadJson(p: DecodedPayload, includeHidden = true): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  if (p.error) {
    out['@error'] = p.error;
    if (p.raw !== undefined) out['@raw'] = p.raw;
  }
  return fieldsJson(p.fields, includeHidden, out);
}

/**
 * JSON of an event's payloads: the fields of all its payloads in one object (a later payload's
 * field with a taken name becomes `name#2`), and the pop/end payloads' fields under `@end`.
 * Referenced blobs (not meant to be shown) are left out.
 */
export function eventPayloadsJson(
  begin: readonly DecodedPayload[],
  end: readonly DecodedPayload[] = [],
  includeHidden = true,
): { [key: string]: Json } {
  const merge = (list: readonly DecodedPayload[]) => {
    const out: { [key: string]: Json } = {};
    for (const p of list) {
      if (p.kind === 'referenced') continue;
      for (const [k, v] of Object.entries(payloadJson(p, includeHidden))) out[uniqueKey(out, k)] = v;
    }
    return out;
  };
  const out = merge(begin);
  if (end.some((p) => p.kind !== 'referenced')) out[uniqueKey(out, '@end')] = merge(end);
  return out;
}

// ------------------------------------------------------------------ text

function hexText(v: number | bigint, digits = 0): string {
  const n = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  const u = n < 0n ? BigInt.asUintN(64, n) : n;
  return `0x${u.toString(16).padStart(digits, '0')}`;
}

function scalarText(v: FieldValue, display: DecodedField['display'], quote: boolean): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return quote ? JSON.stringify(v) : v;
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (display === 'hex') return hexText(v);
    if (display === 'color') return hexText(v, 8);
    return String(v);
  }
  if (typeof v === 'boolean') return String(v);
  return arrayText(v, display, quote, 32);
}

function arrayText(v: FieldValue[], display: DecodedField['display'], quote: boolean, max: number): string {
  const shown = v.slice(0, max).map((x) => scalarText(x, display, quote));
  return `[${shown.join(', ')}${v.length > max ? `, … ${v.length - max} more` : ''}]`;
}

/**
 * A field's value as one line of text: numbers (hex for addresses and bytes), strings, enums as
 * `NAME (n)`, arrays (first 32 elements), counters scaled with their unit.
 */
export function formatFieldValue(f: DecodedField): string {
  if (f.children !== undefined) {
    return f.children.length > 0 && f.children.every(isElement) ? `[${f.children.length} × ${f.type.replace(/\[.*$/, '')}]` : '{…}';
  }
  if (f.value === undefined) return '';
  if (f.pointer && !f.pointer.resolved) return `${f.pointer.address} (not captured)`;
  if (f.kind === 'enum') {
    const n = f.numeric !== undefined ? String(f.numeric) : '';
    return typeof f.value === 'string' && n ? `${f.value} (${n})` : scalarText(f.value, f.display, false);
  }
  if (f.counter?.value !== undefined && f.counter.value !== Number(f.value)) {
    const unit = f.unit ? ` ${f.unit}` : '';
    return `${f.counter.value}${unit} (raw ${scalarText(f.value, f.display, false)})`;
  }
  const text = scalarText(f.value, f.display, Array.isArray(f.value));
  return f.unit ? `${text} ${f.unit}` : text;
}

function summaryOf(fields: readonly DecodedField[], out: string[], budget: { left: number }): void {
  for (const f of fields) {
    if (f.hidden || budget.left <= 0) continue;
    let v: string;
    if (f.error && f.value === undefined && f.children === undefined) v = '⚠';
    else if (f.children !== undefined && !f.children.every(isElement)) {
      const inner: string[] = [];
      summaryOf(f.children, inner, { left: budget.left });
      v = `{${inner.join(', ')}}`;
    } else if (f.value !== undefined && f.kind !== 'enum') v = scalarText(f.value, f.display, true);
    else v = formatFieldValue(f);
    const item = `${f.name}=${v}`;
    out.push(item);
    budget.left -= item.length + 2;
  }
}

/** One line for tables: `name=value, …` over the visible fields of the shown payloads. */
export function payloadSummary(payloads: readonly DecodedPayload[], maxLength = 160): string {
  const parts: string[] = [];
  for (const p of payloads) {
    if (p.kind === 'referenced') continue;
    if (p.error && p.fields.length === 0) parts.push(`⚠ ${p.error}`);
    else summaryOf(p.fields, parts, { left: maxLength });
  }
  const text = parts.join(', ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
