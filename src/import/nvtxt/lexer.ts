/**
 * The NVTXT lexer: turns the comma-separated values of one line into typed values (Integer or
 * String), expanding `$variable` references as it goes (the format expands variables while
 * lexing). Hand-written over char codes, writing into reusable parallel arrays, because it runs
 * once per line of files with millions of lines.
 *
 * Value syntax (NVTXT guide 4.2):
 * - a String is 'quoted' or "quoted" (everything between the quotes is literal, no escapes) or a
 *   bare identifier (letters, digits, '_', not starting with a digit);
 * - an Integer is a decimal Int64 (optionally negative) or 0x/0X followed by up to 16 hexadecimal
 *   digits (read as the 64-bit two's complement pattern, as .NET does: 0xFFFFFFFFFFFFFFFF is -1);
 * - `$name` stands for the current value of variable `name`, with its type. Expansion replaces
 *   one whole value: `pre$name` is an error, and nothing is expanded inside quotes.
 */

export const ValueKind = { Integer: 1, String: 2 } as const;
export type ValueKindCode = (typeof ValueKind)[keyof typeof ValueKind];

/** One value held by a variable. */
export interface Value {
  kind: ValueKindCode;
  /** The string (String values); '' for integers. */
  text: string;
  /** The integer when it is a safe integer (|v| <= 2^53 - 1); else see `big`. */
  num: number;
  /** The integer when it is beyond the safe range, else null. */
  big: bigint | null;
}

/** The values of one line, as parallel arrays reused from line to line. */
export class ValueList {
  count = 0;
  readonly kind: ValueKindCode[] = [];
  readonly text: string[] = [];
  readonly num: number[] = [];
  readonly big: (bigint | null)[] = [];

  /** A standalone copy of value `i` (for storing in a variable). */
  value(i: number): Value {
    return { kind: this.kind[i], text: this.text[i], num: this.num[i], big: this.big[i] };
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

const C_TAB = 9;
const C_SPACE = 32;
const C_DQUOTE = 34;
const C_DOLLAR = 36;
const C_SQUOTE = 39;
const C_COMMA = 44;
const C_MINUS = 45;
const C_0 = 48;
const C_9 = 57;
const C_UNDERSCORE = 95;

export function isSpace(c: number): boolean {
  // Tab, LF, VT, FF, CR (a stray CR of a CRLF file), space.
  return c === C_SPACE || (c >= C_TAB && c <= 13);
}

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}

function hexDigit(c: number): number {
  if (c >= C_0 && c <= C_9) return c - C_0;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

const NON_ASCII_LETTER = /\p{L}/u;

/** Letters (any script), '_'. */
export function isIdentStart(c: number): boolean {
  const l = c | 0x20;
  if (l >= 97 && l <= 122) return true;
  if (c === C_UNDERSCORE) return true;
  return c >= 0x80 && NON_ASCII_LETTER.test(String.fromCharCode(c));
}

/** Letters, digits, '_'. */
export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

/** End of the identifier starting at `i` (exclusive). */
export function identEnd(line: string, i: number): number {
  const n = line.length;
  while (i < n && isIdentPart(line.charCodeAt(i))) i++;
  return i;
}

export function skipSpace(line: string, i: number): number {
  const n = line.length;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  return i;
}

/** What a character looks like in a message. */
function shown(line: string, i: number): string {
  const ch = String.fromCodePoint(line.codePointAt(i)!);
  return ch === "'" ? `"'"` : `'${ch}'`;
}

/** Lexes value lists of lines; one instance per decoded file (it reads that file's variables). */
export class LineLexer {
  /** Set when `lexValues` fails: what is wrong, with the column. */
  error = '';
  /**
   * The variable expanded last. Variables are never removed and re-assignment updates their
   * `Value` in place, so the cached object stays current.
   */
  private lastVariableName = '';
  private lastVariable: Value | undefined = undefined;

  constructor(
    private readonly variables: ReadonlyMap<string, Value>,
    private readonly out: ValueList,
  ) {}

  /**
   * Lexes the comma-separated values of `line` from `pos` to its end into the list. Returns false
   * (with `error` set) when the line is malformed. Messages number the values from `firstNumber`
   * (0 for a call, so that its first argument is value 1, as in type errors).
   */
  lexValues(line: string, pos: number, firstNumber = 1): boolean {
    const out = this.out;
    out.count = 0;
    const n = line.length;
    let i = skipSpace(line, pos);
    if (i >= n) return true;
    for (;;) {
      i = skipSpace(line, i);
      if (i >= n || line.charCodeAt(i) === C_COMMA) {
        return this.fail(`value ${out.count + firstNumber} is empty`, i);
      }
      i = this.lexValue(line, i);
      if (i < 0) return false;
      i = skipSpace(line, i);
      if (i >= n) return true;
      if (line.charCodeAt(i) !== C_COMMA) {
        const c = line.charCodeAt(i);
        const hint =
          c === C_DOLLAR
            ? ' (a $variable stands for a whole value)'
            : c === C_DQUOTE || c === C_SQUOTE
              ? ' (quotes must enclose the whole value)'
              : '';
        const number = out.count - 1 + firstNumber;
        const after = number === 0 ? 'the command name' : `value ${number}`;
        return this.fail(`expected ',' after ${after}, found ${shown(line, i)}${hint}`, i);
      }
      i++;
    }
  }

  /** Lexes one value at `i`; returns the position after it, or -1 on error. */
  private lexValue(line: string, i: number): number {
    const c = line.charCodeAt(i);
    if (c === C_DQUOTE || c === C_SQUOTE) {
      const close = line.indexOf(c === C_DQUOTE ? '"' : "'", i + 1);
      if (close < 0) {
        this.fail(`unterminated string: no closing ${c === C_DQUOTE ? `'"'` : `"'"`}`, i);
        return -1;
      }
      this.pushString(line.slice(i + 1, close));
      return close + 1;
    }
    if (c === C_DOLLAR) return this.lexVariable(line, i);
    if (c === C_MINUS || isDigit(c)) return this.lexInteger(line, i);
    if (isIdentStart(c)) {
      const end = identEnd(line, i);
      this.pushString(line.slice(i, end));
      return end;
    }
    this.fail(`unexpected character ${shown(line, i)}`, i);
    return -1;
  }

  private lexVariable(line: string, i: number): number {
    const start = i + 1;
    if (start >= line.length || !isIdentStart(line.charCodeAt(start))) {
      this.fail(`'$' must be followed by a variable name`, i);
      return -1;
    }
    const end = identEnd(line, start);
    let v = this.lastVariable;
    // Most lines use the same few variables: compare in place before slicing and hashing.
    const cached = this.lastVariableName;
    if (v === undefined || end - start !== cached.length || !line.startsWith(cached, start)) {
      const name = line.slice(start, end);
      v = this.variables.get(name);
      if (v === undefined) {
        this.fail(`undefined variable $${name}`, i);
        return -1;
      }
      this.lastVariableName = name;
      this.lastVariable = v;
    }
    const out = this.out;
    const k = out.count++;
    out.kind[k] = v.kind;
    out.text[k] = v.text;
    out.num[k] = v.num;
    out.big[k] = v.big;
    return end;
  }

  private lexInteger(line: string, i: number): number {
    const n = line.length;
    let j = i;
    const negative = line.charCodeAt(j) === C_MINUS;
    if (negative) {
      j++;
      if (j >= n || !isDigit(line.charCodeAt(j))) {
        this.fail(`'-' must be followed by decimal digits`, i);
        return -1;
      }
    }
    if (line.charCodeAt(j) === C_0 && j + 1 < n && (line.charCodeAt(j + 1) | 0x20) === 120 /* x */) {
      if (negative) {
        this.fail(`a hexadecimal integer cannot be negative ('${this.word(line, i)}')`, i);
        return -1;
      }
      return this.lexHex(line, i, j + 2);
    }
    let k = j;
    let value = 0;
    while (k < n) {
      const c = line.charCodeAt(k);
      if (c < C_0 || c > C_9) break;
      value = value * 10 + (c - C_0);
      k++;
    }
    if (k < n && isIdentPart(line.charCodeAt(k))) {
      this.fail(`invalid integer '${this.word(line, i)}'`, i);
      return -1;
    }
    const out = this.out;
    if (k - j <= 15) {
      // At most 15 digits: exact in a double.
      const kk = out.count++;
      out.kind[kk] = ValueKind.Integer;
      out.text[kk] = '';
      out.num[kk] = negative && value !== 0 ? -value : value;
      out.big[kk] = null;
      return k;
    }
    const big = BigInt(line.slice(i, k));
    if (big < INT64_MIN || big > INT64_MAX) {
      this.fail(`integer ${line.slice(i, k)} is out of the Int64 range (-9223372036854775808..9223372036854775807)`, i);
      return -1;
    }
    this.pushBig(big);
    return k;
  }

  private lexHex(line: string, i: number, digitsStart: number): number {
    const n = line.length;
    let k = digitsStart;
    while (k < n && hexDigit(line.charCodeAt(k)) >= 0) k++;
    if (k === digitsStart || (k < n && isIdentPart(line.charCodeAt(k)))) {
      this.fail(
        k === digitsStart ? `'0x' must be followed by hexadecimal digits` : `invalid hexadecimal integer '${this.word(line, i)}'`,
        i,
      );
      return -1;
    }
    let s = digitsStart;
    while (s < k - 1 && line.charCodeAt(s) === C_0) s++;
    const digits = k - s;
    if (digits > 16) {
      this.fail(`integer ${line.slice(i, k)} is out of the Int64 range (more than 16 hexadecimal digits)`, i);
      return -1;
    }
    if (digits <= 13) {
      // At most 52 bits: exact in a double.
      const out = this.out;
      const kk = out.count++;
      out.kind[kk] = ValueKind.Integer;
      out.text[kk] = '';
      out.num[kk] = parseInt(line.slice(s, k), 16);
      out.big[kk] = null;
      return k;
    }
    this.pushBig(BigInt.asIntN(64, BigInt(`0x${line.slice(s, k)}`)));
    return k;
  }

  private pushBig(big: bigint): void {
    const out = this.out;
    const k = out.count++;
    out.kind[k] = ValueKind.Integer;
    out.text[k] = '';
    const safe = big <= MAX_SAFE_BIG && big >= -MAX_SAFE_BIG;
    out.num[k] = safe ? Number(big) : NaN;
    out.big[k] = safe ? null : big;
  }

  private pushString(s: string): void {
    const out = this.out;
    const k = out.count++;
    out.kind[k] = ValueKind.String;
    out.text[k] = s;
    out.num[k] = NaN;
    out.big[k] = null;
  }

  /** The run of value characters at `i`, for messages. */
  private word(line: string, i: number): string {
    let k = i + 1;
    while (k < line.length && (isIdentPart(line.charCodeAt(k)) || line.charCodeAt(k) === C_MINUS)) k++;
    return line.slice(i, k);
  }

  private fail(message: string, column0: number): false {
    this.error = `${message} (column ${column0 + 1})`;
    return false;
  }
}

/** Describes a value for messages: `Integer 12`, `String "abc"`. */
export function describeValue(kind: ValueKindCode, text: string, num: number, big: bigint | null): string {
  if (kind === ValueKind.Integer) return `Integer ${big !== null ? big.toString() : String(num)}`;
  const shownText = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `String "${shownText}"`;
}
