/**
 * Runs the instructions of one NVTXT file, line by line, into a `ModelBuilder`. All state of a file
 * (variables, command definitions, time base origins, caches) lives in one instance, so files
 * decoded side by side never share anything (NVTXT guide 4.4).
 *
 * Every problem is reported with its 1-based line and the rest of the file still loads: a line
 * with an error is skipped as a whole, while a bad optional attribute (unknown color name) only
 * drops that attribute, with a warning.
 */
import type { EventAttrs } from '../../model/builder.ts';
import { MAX_STRING_CHARS, type ModelBuilder } from '../../model/builder.ts';
import { PayloadType, type LoadIssue } from '../../model/types.ts';
import type { DecodeOptions } from '../importer.ts';
import { StyleCache } from '../styleCache.ts';
import { colorByName } from './namedColors.ts';
import {
  Arg,
  ARG_COUNT,
  argNames,
  ArgType,
  argTypes,
  Command,
  commandArgs,
  commandAt,
  commandByName,
  commandLike,
  commandNames,
  defaultDefinitions,
  isOptional,
  makeDefinition,
  type ArgId,
  type CommandId,
  type Definition,
} from './commands.ts';
import { detach } from './detach.ts';
import { describeValue, identEnd, isIdentStart, isSpace, LineLexer, skipSpace, ValueKind, ValueList, type Value, type ValueKindCode } from './lexer.ts';
import { TimeConverter } from './timebase.ts';

/** Problems reported one by one; beyond this, they are counted and summarised at the end. */
const MAX_LISTED_PROBLEMS = 1000;
const UINT32_MAX = 0xffffffff;
const C_COMMA = 44;
const C_HASH = 35;
const C_EQUALS = 61;
const C_AT = 64;

const argIds = new Map<string, ArgId>(argNames.map((name, id) => [name, id as ArgId]));

export class NvtxtInterpreter {
  private readonly variables = new Map<string, Value>();
  private readonly values = new ValueList();
  private readonly lexer: LineLexer;
  private readonly definitions: Definition[] = defaultDefinitions();
  private readonly time: TimeConverter;
  /** Interned message/name ids by text. */
  private readonly names = new Map<string, number>();
  /** ARGB by color string (0 = no color; bad strings were reported once). */
  private readonly colorStrings = new Map<string, number>();
  /** Styles by name id (made on first use: it needs the builder). */
  private styles: StyleCache | undefined;

  // Arguments bound for the current call, by ArgId; `boundAt[a] === callNumber` when bound.
  private callNumber = 0;
  private readonly boundAt = new Float64Array(ARG_COUNT);
  private readonly boundKind: ValueKindCode[] = new Array<ValueKindCode>(ARG_COUNT).fill(ValueKind.String);
  private readonly boundText: string[] = new Array<string>(ARG_COUNT).fill('');
  private readonly boundNum = new Float64Array(ARG_COUNT);
  private readonly boundBig: (bigint | null)[] = new Array<bigint | null>(ARG_COUNT).fill(null);

  private lastPid = NaN;
  private lastTid = NaN;
  private lastThread = -1;

  private badTextLines = 0;
  private firstBadTextLine = 0;
  private listed = 0;
  private unlisted = 0;
  private firstUnlisted = 0;
  private lastUnlisted = 0;

  constructor(
    private readonly builder: ModelBuilder,
    options: DecodeOptions,
  ) {
    this.lexer = new LineLexer(this.variables, this.values);
    this.time = new TimeConverter(builder, options, (severity, message, line) => this.report(severity, message, line));
  }

  /** Runs one line (without its line end). */
  line(text: string, line: number): void {
    const n = text.length;
    let i = 0;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) return;
    const c = text.charCodeAt(i);
    if (c === C_HASH) return;
    if (c === C_AT) {
      this.define(text, i + 1, line);
      return;
    }
    if (isIdentStart(c)) {
      const end = identEnd(text, i);
      const next = skipSpace(text, end);
      if (next < n && text.charCodeAt(next) === C_EQUALS) {
        this.assign(text.slice(i, end), text, next + 1, line);
        return;
      }
      // The usual line: a command name, then its values.
      const command = commandAt(text, i, end);
      if (command !== undefined) {
        if (next < n && text.charCodeAt(next) !== C_COMMA) {
          this.error(`expected ',' after the command name, found '${text[next]}' (column ${next + 1})`, line);
        } else if (next < n && skipSpace(text, next + 1) >= n) {
          this.error(`value 1 is empty (column ${n + 1})`, line);
        } else if (!this.lexer.lexValues(text, next + 1, 1)) {
          this.error(this.lexer.error, line);
        } else {
          this.call(command, 0, line);
        }
        return;
      }
    }
    this.generalCall(text, i, line);
  }

  /** Notes a line whose bytes could not be decoded (reported once, in `end`). */
  invalidText(line: number): void {
    if (this.badTextLines++ === 0) this.firstBadTextLine = line;
  }

  /** Reports what could not be listed line by line. */
  end(): void {
    if (this.badTextLines > 0) {
      this.builder.report(
        'warning',
        `${this.badTextLines} line${this.badTextLines === 1 ? '' : 's'} (the first is this one) hold bytes that could not be decoded, shown as \ufffd: NVTXT files are read as UTF-8 (or UTF-16 when they start with its BOM)`,
        { line: this.firstBadTextLine },
      );
    }
    if (this.unlisted > 0) {
      this.builder.report(
        'error',
        `${this.unlisted} more problems on lines ${this.firstUnlisted}..${this.lastUnlisted} are not listed one by one (only the first ${MAX_LISTED_PROBLEMS} are)`,
      );
    }
  }

  // ---------------------------------------------------------------- instructions

  /** `Name = value`. */
  private assign(name: string, text: string, valuePos: number, line: number): void {
    const v = this.values;
    if (!this.lexer.lexValues(text, valuePos)) {
      this.error(`assignment to ${name}: ${this.lexer.error}`, line);
      return;
    }
    if (v.count !== 1) {
      this.error(
        v.count === 0
          ? `assignment to ${name} has no value`
          : `assignment to ${name} takes one value, got ${v.count} (quote a string that contains commas)`,
        line,
      );
      return;
    }
    // Updated in place: the lexer caches Value objects (see LineLexer).
    const existing = this.variables.get(name);
    const value = existing ?? v.value(0);
    value.kind = v.kind[0];
    value.text = detach(v.text[0]);
    value.num = v.num[0];
    value.big = v.big[0];
    if (!existing) this.variables.set(detach(name), value);
  }

  /** `@Command, Arg, Arg...`. */
  private define(text: string, pos: number, line: number): void {
    const v = this.values;
    if (!this.lexer.lexValues(text, pos, 0)) {
      this.error(`command definition: ${this.lexer.error}`, line);
      return;
    }
    if (v.count === 0 || v.kind[0] !== ValueKind.String) {
      this.error(`'@' must be followed by a command name (${commandNames.join(', ')})`, line);
      return;
    }
    const command = commandByName(v.text[0]);
    if (command === undefined) {
      this.error(`definition of unknown command "${v.text[0]}"${this.commandHint(v.text[0])}`, line);
      return;
    }
    const name = commandNames[command];
    const positional: ArgId[] = [];
    for (let k = 1; k < v.count; k++) {
      if (v.kind[k] !== ValueKind.String) {
        this.error(`definition of ${name}: expected an argument name, got ${describeValue(v.kind[k], v.text[k], v.num[k], v.big[k])}`, line);
        return;
      }
      const arg = argIds.get(v.text[k]);
      if (arg === undefined || !commandArgs[command].includes(arg)) {
        this.error(
          `definition of ${name}: "${v.text[k]}" is not an argument of ${name} (its arguments: ${commandArgs[command].map((a) => argNames[a]).join(', ')})`,
          line,
        );
        return;
      }
      if (positional.includes(arg)) {
        this.error(`definition of ${name}: argument ${argNames[arg]} appears twice`, line);
        return;
      }
      positional.push(arg);
    }
    this.definitions[command] = makeDefinition(command, positional);
  }

  /** A line that does not start with a plain command name: `$command, ...`, or an error. */
  private generalCall(text: string, pos: number, line: number): void {
    const v = this.values;
    if (!this.lexer.lexValues(text, pos, 0)) {
      this.error(this.badAssignment(text, pos) ?? this.lexer.error, line);
      return;
    }
    if (v.kind[0] !== ValueKind.String) {
      this.error(
        this.badAssignment(text, pos) ??
          `a line must be a command call, a variable assignment, an '@' definition or a '#' comment; it starts with ${describeValue(v.kind[0], v.text[0], v.num[0], v.big[0])}`,
        line,
      );
      return;
    }
    const command = commandByName(v.text[0]);
    if (command === undefined) {
      this.error(`unknown command "${v.text[0]}"${this.commandHint(v.text[0])}`, line);
      return;
    }
    this.call(command, 1, line);
  }

  /** `Command, value, value...` with the values lexed, the first at index `base`. */
  private call(command: CommandId, base: number, line: number): void {
    const v = this.values;
    const def = this.definitions[command];
    const given = v.count - base;
    if (given !== def.positional.length) {
      this.error(`${commandNames[command]} ${arityText(def)}, got ${given}`, line);
      return;
    }
    const call = ++this.callNumber;
    for (let k = 0; k < given; k++) {
      const arg = def.positional[k];
      const at = k + base;
      const kind = v.kind[at];
      if (!accepts(arg, kind)) {
        this.error(
          `${commandNames[command]}: expected ${typeName(arg)} for ${argNames[arg]} (value ${k + 1}), got ${describeValue(kind, v.text[at], v.num[at], v.big[at])}`,
          line,
        );
        return;
      }
      this.bind(arg, call, kind, v.text[at], v.num[at], v.big[at]);
    }
    for (const arg of def.fixed) {
      const value = this.variables.get(argNames[arg]);
      if (value === undefined) {
        if (isOptional(command, arg)) continue;
        this.error(
          `${commandNames[command]}: argument ${argNames[arg]} is static (not in the current definition of ${commandNames[command]}) but variable ${argNames[arg]} is not defined`,
          line,
        );
        return;
      }
      if (!accepts(arg, value.kind)) {
        this.error(
          `${commandNames[command]}: expected ${typeName(arg)} for ${argNames[arg]} (static, from variable ${argNames[arg]}), got ${describeValue(value.kind, value.text, value.num, value.big)}`,
          line,
        );
        return;
      }
      this.bind(arg, call, value.kind, value.text, value.num, value.big);
    }
    this.run(command, line);
  }

  private bind(arg: ArgId, call: number, kind: ValueKindCode, text: string, num: number, big: bigint | null): void {
    this.boundAt[arg] = call;
    this.boundKind[arg] = kind;
    this.boundText[arg] = text;
    this.boundNum[arg] = num;
    this.boundBig[arg] = big;
  }

  private has(arg: ArgId): boolean {
    return this.boundAt[arg] === this.callNumber;
  }

  // ---------------------------------------------------------------- commands

  private run(command: CommandId, line: number): void {
    const b = this.builder;
    switch (command) {
      case Command.Marker:
      case Command.RangePush:
      case Command.RangeStartEnd:
        this.event(command, line);
        return;
      case Command.RangePop: {
        const thread = this.thread(command, line);
        if (thread < 0) return;
        const t = this.timeOf(Arg.Time, line);
        if (t !== t) return;
        b.pop(thread, t, 0, { line });
        return;
      }
      case Command.NameCategory: {
        const id = this.categoryId(command, Arg.CategoryId, line);
        if (id < 0) return;
        b.nameCategory(0, id, this.text(Arg.Name), { line });
        return;
      }
      case Command.AddChildCategory: {
        const parent = this.categoryId(command, Arg.ParentCategoryId, line);
        const child = parent < 0 ? -1 : this.categoryId(command, Arg.CategoryId, line);
        if (child < 0) return;
        b.addChildCategory(0, parent, child, { line });
        return;
      }
      case Command.NameOsThread: {
        const pid = this.id(command, Arg.ProcessId, line);
        const tid = pid !== pid ? NaN : this.id(command, Arg.ThreadId, line);
        if (tid !== tid) return;
        b.thread(pid, tid, this.text(Arg.Name), { line });
        return;
      }
      case Command.NameProcess: {
        const pid = this.id(command, Arg.ProcessId, line);
        if (pid !== pid) return;
        b.process(pid, this.text(Arg.Name), { line });
        return;
      }
      case Command.SetFileDisplayName:
        b.setDisplayName(this.text(Arg.Name));
        return;
    }
  }

  /** Marker, RangePush, RangeStartEnd. */
  private event(command: CommandId, line: number): void {
    const thread = this.thread(command, line);
    if (thread < 0) return;
    const b = this.builder;
    let category = 0;
    if (this.has(Arg.CategoryId)) {
      category = this.categoryId(command, Arg.CategoryId, line);
      if (category < 0) return;
    }
    const first = this.timeOf(command === Command.RangeStartEnd ? Arg.Start : Arg.Time, line);
    if (first !== first) return;
    let end = 0;
    if (command === Command.RangeStartEnd) {
      end = this.timeOf(Arg.End, line);
      if (end !== end) return;
    }
    const nameId = this.intern(this.has(Arg.Message) ? this.boundText[Arg.Message] : '', line);
    const color = this.has(Arg.Color) ? this.color(line) : 0;
    const attrs: EventAttrs = { nameId, color, category, style: this.styleOf(nameId, color, category) };
    if (this.has(Arg.Payload)) {
      const big = this.boundBig[Arg.Payload];
      attrs.payload = { type: PayloadType.I64, value: big ?? BigInt(this.boundNum[Arg.Payload]) };
    }
    if (command === Command.Marker) b.mark(thread, first, attrs, { line });
    else if (command === Command.RangePush) b.push(thread, first, attrs, { line });
    else b.startEnd(thread, first, end, attrs, undefined, { line });
  }

  // ---------------------------------------------------------------- argument values

  /** ns of a bound time argument; NaN (reported) when it cannot be placed. */
  private timeOf(arg: ArgId, line: number): number {
    const base = this.time.resolve(this.has(Arg.TimeBase) ? this.boundText[Arg.TimeBase] : undefined, line);
    return this.time.toNs(base, this.boundNum[arg], this.boundBig[arg], line);
  }

  /** Builder thread index of the bound ProcessId/ThreadId, or -1 (reported). */
  private thread(command: CommandId, line: number): number {
    const pid = this.boundNum[Arg.ProcessId];
    const tid = this.boundNum[Arg.ThreadId];
    if (pid === this.lastPid && tid === this.lastTid) return this.lastThread;
    if (this.id(command, Arg.ProcessId, line) !== pid || this.id(command, Arg.ThreadId, line) !== tid) return -1;
    this.lastPid = pid;
    this.lastTid = tid;
    this.lastThread = this.builder.thread(pid, tid);
    return this.lastThread;
  }

  /** A process or thread id: any integer within ±2^53; NaN (reported) otherwise. */
  private id(command: CommandId, arg: ArgId, line: number): number {
    if (this.boundBig[arg] === null) return this.boundNum[arg];
    this.error(`${commandNames[command]}: ${argNames[arg]} ${this.boundBig[arg]} is too large (ids must be within ±2^53)`, line);
    return NaN;
  }

  /** A category id (NVTX categories are uint32); -1 (reported) when out of range. */
  private categoryId(command: CommandId, arg: ArgId, line: number): number {
    const num = this.boundNum[arg];
    if (this.boundBig[arg] === null && num >= 0 && num <= UINT32_MAX) return num;
    this.error(
      `${commandNames[command]}: ${argNames[arg]} must be between 0 and ${UINT32_MAX}, got ${this.boundBig[arg] ?? num}`,
      line,
    );
    return -1;
  }

  private text(arg: ArgId): string {
    return detach(this.boundText[arg]);
  }

  /** The builder style of an event (cached by name: src/import/styleCache.ts). */
  private styleOf(nameId: number, color: number, category: number): number {
    return (this.styles ??= new StyleCache(this.builder)).styleOf(nameId, color, category);
  }

  private intern(s: string, line: number): number {
    // A name over the bound is cut by the builder; the whole one must not stay here as a map key.
    if (s.length > MAX_STRING_CHARS) return this.builder.intern(s, 'name', { line });
    let id = this.names.get(s);
    if (id === undefined) {
      const kept = detach(s);
      id = this.builder.intern(kept);
      this.names.set(kept, id);
    }
    return id;
  }

  /** ARGB of the bound Color (integer, "0xAARRGGBB" or a color name); 0 (with a warning) if invalid. */
  private color(line: number): number {
    if (this.boundKind[Arg.Color] === ValueKind.Integer) {
      const num = this.boundNum[Arg.Color];
      if (this.boundBig[Arg.Color] === null && num >= -0x80000000 && num <= UINT32_MAX) return num >>> 0;
      this.warning(`Color ${this.boundBig[Arg.Color] ?? num} is not a 32-bit ARGB value; the event has no color`, line);
      return 0;
    }
    const s = this.boundText[Arg.Color];
    const known = this.colorStrings.get(s);
    if (known !== undefined) return known;
    const argb = parseColorString(s);
    if (argb === undefined) {
      this.warning(
        /^0x/i.test(s)
          ? `Color "${s}" is not a hexadecimal 32-bit ARGB value; events with it have no color`
          : `unknown color name "${s}" (the names of .NET System.Drawing.Color are known); events with it have no color`,
        line,
      );
    }
    this.colorStrings.set(detach(s), argb ?? 0);
    return argb ?? 0;
  }

  // ---------------------------------------------------------------- messages

  private commandHint(name: string): string {
    const like = commandLike(name);
    return like ? ` (did you mean ${like}? names are case-sensitive)` : ` (known: ${commandNames.join(', ')})`;
  }

  /** A message for lines like `1x = 5` or `my-var = 5`, which look like assignments to bad names. */
  private badAssignment(text: string, pos: number): string | undefined {
    const eq = text.indexOf('=', pos);
    if (eq < 0) return undefined;
    const name = text.slice(pos, eq).trim();
    if (name.length === 0 || /["',\s]/.test(name)) return undefined;
    return `invalid variable name "${name}": names are letters, digits and '_', not starting with a digit`;
  }

  private error(message: string, line: number): void {
    this.report('error', message, line);
  }

  private warning(message: string, line: number): void {
    this.report('warning', message, line);
  }

  private report(severity: LoadIssue['severity'], message: string, line: number): void {
    if (this.listed < MAX_LISTED_PROBLEMS) {
      this.listed++;
      this.builder.report(severity, detach(message), line > 0 ? { line } : undefined);
      return;
    }
    if (this.unlisted === 0) this.firstUnlisted = line;
    this.unlisted++;
    this.lastUnlisted = line;
  }
}

function accepts(arg: ArgId, kind: ValueKindCode): boolean {
  const type = argTypes[arg];
  return type === ArgType.IntegerOrString || (type === ArgType.Integer) === (kind === ValueKind.Integer);
}

function typeName(arg: ArgId): string {
  const type = argTypes[arg];
  return type === ArgType.Integer ? 'Integer' : type === ArgType.String ? 'String' : 'Integer or String';
}

function arityText(def: Definition): string {
  const n = def.positional.length;
  if (n === 0) return 'takes no values (all its arguments are static)';
  return `expects ${n} value${n === 1 ? '' : 's'} (${def.positional.map((a) => argNames[a]).join(', ')})`;
}

/** ARGB of a color string: "0xAARRGGBB" (1 to 8 hex digits) or a color name; undefined if neither. */
export function parseColorString(s: string): number | undefined {
  if (s.length > 2 && s.charCodeAt(0) === 48 && (s.charCodeAt(1) | 0x20) === 120) {
    const digits = s.slice(2);
    if (!/^[0-9a-fA-F]{1,8}$/.test(digits)) return undefined;
    return parseInt(digits, 16) >>> 0;
  }
  return colorByName(s);
}
