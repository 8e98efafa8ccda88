/**
 * The bound on strings kept in a model (issue 16): a name, category, domain, payload, thread or
 * property text longer than `MAX_STRING_CHARS` is cut there and ends in "…", and each kind of
 * string that was cut is reported once, with the count and where the first one was. One string of
 * 100 MB in a file must not become 100 MB (or, as UTF-16, 200 MB) of model, nor 100 MB in every
 * table, tooltip and export that shows it.
 */
import { PayloadType } from '../types.ts';
import type { EventAttrs, JsonBytesValue, PayloadValue, RangeRename, SourceLocation } from './inputs.ts';

/** Longest string kept, in UTF-16 code units (64 Ki; the native collector copies at most 64 KiB too). */
export const MAX_STRING_CHARS = 65536;

/** Longest JSON payload text kept as JSON, in UTF-8 bytes; a longer one is kept as cut plain text. */
export const MAX_JSON_BYTES = 65536;

/** The end of every cut string. */
export const CUT_MARK = '…';

/** What a string was, for the report ("3 names cut to 64 KiB"). */
export type StringKind = 'name' | 'category' | 'domain' | 'payload' | 'process name' | 'thread name' | 'property' | 'string';

const SINGULAR: Record<StringKind, string> = {
  name: 'name',
  category: 'category name',
  domain: 'domain name',
  payload: 'payload text',
  'process name': 'process name',
  'thread name': 'thread name',
  property: 'capture property',
  string: 'string',
};

const PLURAL: Record<StringKind, string> = {
  name: 'names',
  category: 'category names',
  domain: 'domain names',
  payload: 'payload texts',
  'process name': 'process names',
  'thread name': 'thread names',
  property: 'capture properties',
  string: 'strings',
};

/**
 * The first code units of `s` and the mark, `MAX_STRING_CHARS` in all (one fewer when the cut
 * would split a surrogate pair), as a string of its own: `slice` alone would keep the whole original alive.
 */
export function cutString(s: string): string {
  let n = Math.min(s.length, MAX_STRING_CHARS - CUT_MARK.length);
  const last = s.charCodeAt(n - 1);
  if (last >= 0xd800 && last <= 0xdbff) n--;
  // JSON.parse makes a fresh flat string; a slice (or a concatenation with it) would point into `s`.
  return (JSON.parse(JSON.stringify(s.slice(0, n))) as string) + CUT_MARK;
}

/** Where a string was: a line or byte, or for a database the table and row (`record`: "NVTX_EVENTS row 12"). */
export interface StringPlace extends SourceLocation {
  record?: string;
}

interface KindCuts {
  count: number;
  /** Longest original, code units. */
  longest: number;
  first?: StringPlace;
}

function placeText(where: StringPlace | undefined): string {
  if (where?.record !== undefined) return `; the first in ${where.record}`;
  if (where?.line !== undefined) return `; the first at line ${where.line.toLocaleString('en-US')}`;
  if (where?.offset !== undefined) return `; the first at byte ${where.offset.toLocaleString('en-US')}`;
  return '';
}

/** Where the report goes (the builder's `IssueLog`, which bounds its messages with `cutString`). */
interface IssueSink {
  report(severity: 'warning', message: string, where?: SourceLocation): void;
}

/** The strings a builder cut, per kind, until they are reported. */
export class StringCuts {
  private readonly kinds = new Map<StringKind, KindCuts>();

  /** `s` if within the bound, else its cut (counted under `kind`, located at `where`). */
  bound(s: string, kind: StringKind, where?: StringPlace): string {
    return s.length > MAX_STRING_CHARS ? this.cut(s, kind, where) : s;
  }

  cut(s: string, kind: StringKind, where?: StringPlace): string {
    this.count(kind, s.length, where);
    return cutString(s);
  }

  /** Counts a cut made elsewhere (a JSON text of `length` bytes kept as cut text). */
  count(kind: StringKind, length: number, where?: StringPlace): void {
    let k = this.kinds.get(kind);
    // A copy: decoders reuse one location object.
    if (!k) this.kinds.set(kind, (k = { count: 0, longest: 0, first: where && { line: where.line, offset: where.offset, record: where.record } }));
    k.count++;
    k.longest = Math.max(k.longest, length);
  }

  get total(): number {
    let n = 0;
    for (const k of this.kinds.values()) n += k.count;
    return n;
  }

  /** One warning per kind: "2 names cut to 64 KiB (the longest 104,857,600 characters), …; the first at line 3". */
  report(issues: IssueSink): void {
    for (const [kind, k] of this.kinds) {
      const what = k.count === 1 ? `1 ${SINGULAR[kind]}` : `${k.count.toLocaleString('en-US')} ${PLURAL[kind]}`;
      issues.report(
        'warning',
        `${what} cut to 64 KiB (${MAX_STRING_CHARS.toLocaleString('en-US')} characters, then "${CUT_MARK}"; the longest had ${k.longest.toLocaleString('en-US')})${placeText(k.first)}`,
        k.first && { line: k.first.line, offset: k.first.offset },
      );
    }
    this.kinds.clear();
  }
}

const longJsonDecoder = new TextDecoder('utf-8');

/** Whether `p` is a text over the bound (cheap: decoders call this for every event). */
function isLongText(p: PayloadValue): boolean {
  if (p.type !== PayloadType.String && p.type !== PayloadType.Json) return false;
  if (typeof p.value === 'string') return p.value.length > MAX_STRING_CHARS;
  return 'bytes' in p && p.end - p.start > MAX_JSON_BYTES;
}

/**
 * `p` within the bound. A JSON text over it would no longer parse once cut, so it is kept as the
 * cut plain text (a string payload) and counted as a cut payload.
 */
export function boundPayload(p: PayloadValue, cuts: StringCuts, where?: SourceLocation): PayloadValue {
  if (!isLongText(p)) return p;
  if (typeof p.value === 'string') return { type: PayloadType.String, value: cuts.cut(p.value, 'payload', where) };
  const bytes = p as JsonBytesValue;
  cuts.count('payload', bytes.end - bytes.start, where);
  // A UTF-8 sequence split at the cut decodes to U+FFFD: the text is cut anyway.
  return { type: PayloadType.String, value: cutString(longJsonDecoder.decode(bytes.bytes.subarray(bytes.start, bytes.start + MAX_JSON_BYTES))) };
}

/** `attrs` with its name and payload within the bound (the same object when they are: the common case). */
export function boundEventAttrs(attrs: EventAttrs, cuts: StringCuts, where?: SourceLocation): EventAttrs {
  const { name, payload } = attrs;
  const longName = name !== undefined && name.length > MAX_STRING_CHARS;
  if (!longName && (payload === undefined || !isLongText(payload))) return attrs;
  return {
    ...attrs,
    name: longName ? cuts.cut(name, 'name', where) : name,
    payload: payload && boundPayload(payload, cuts, where),
  };
}

/** `rename` with its name within the bound. */
export function boundRename(rename: RangeRename | undefined, cuts: StringCuts, where?: SourceLocation): RangeRename | undefined {
  return rename?.name !== undefined && rename.name.length > MAX_STRING_CHARS ? { ...rename, name: cuts.cut(rename.name, 'name', where) } : rename;
}

/** Row options with their label, path and unit within the bound (a Chrome counter's name is its row label). */
export function boundRowOptions<T extends { label: string; path?: string[]; unit?: string }>(options: T, cuts: StringCuts): T {
  const long = (s: string | undefined) => s !== undefined && s.length > MAX_STRING_CHARS;
  if (!long(options.label) && !long(options.unit) && !(options.path ?? []).some(long)) return options;
  return {
    ...options,
    label: cuts.bound(options.label, 'name'),
    unit: options.unit === undefined ? undefined : cuts.bound(options.unit, 'name'),
    path: options.path?.map((p) => cuts.bound(p, 'name')),
  };
}
