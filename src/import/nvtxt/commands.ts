/**
 * The NVTXT commands and their arguments (NVTXT guide 4.3.1 and 4.3.2): names, types, the
 * default definition of each command, and which arguments may be left out entirely.
 */

/** Argument ids: indices into the per-call argument slots. */
export const Arg = {
  Time: 0,
  Start: 1,
  End: 2,
  TimeBase: 3,
  ProcessId: 4,
  ThreadId: 5,
  CategoryId: 6,
  ParentCategoryId: 7,
  Color: 8,
  Message: 9,
  Payload: 10,
  Name: 11,
} as const;
export type ArgId = (typeof Arg)[keyof typeof Arg];
export const ARG_COUNT = 12;

export const argNames: readonly string[] = Object.keys(Arg);

/** What a value of an argument may be. */
export const ArgType = { Integer: 1, String: 2, IntegerOrString: 3 } as const;
export type ArgTypeCode = (typeof ArgType)[keyof typeof ArgType];

export const argTypes: readonly ArgTypeCode[] = [
  ArgType.Integer, // Time
  ArgType.Integer, // Start
  ArgType.Integer, // End
  ArgType.String, // TimeBase
  ArgType.Integer, // ProcessId
  ArgType.Integer, // ThreadId
  ArgType.Integer, // CategoryId
  ArgType.Integer, // ParentCategoryId
  ArgType.IntegerOrString, // Color: ARGB integer, "0xAARRGGBB" or a color name
  ArgType.String, // Message
  ArgType.Integer, // Payload
  ArgType.String, // Name
];

export const Command = {
  Marker: 0,
  RangePush: 1,
  RangePop: 2,
  RangeStartEnd: 3,
  NameCategory: 4,
  AddChildCategory: 5,
  NameOsThread: 6,
  NameProcess: 7,
  SetFileDisplayName: 8,
} as const;
export type CommandId = (typeof Command)[keyof typeof Command];

export const commandNames: readonly string[] = Object.keys(Command);

const commandIds = new Map<string, CommandId>(Object.entries(Command) as [string, CommandId][]);

/** The command called `name` (exact case), or undefined. */
export function commandByName(name: string): CommandId | undefined {
  return commandIds.get(name);
}

/** The command named by `line[start, end)` (exact case), without slicing the line. */
export function commandAt(line: string, start: number, end: number): CommandId | undefined {
  const length = end - start;
  for (let c = 0; c < commandNames.length; c++) {
    const name = commandNames[c];
    if (name.length === length && line.startsWith(name, start)) return c as CommandId;
  }
  return undefined;
}

/** The command whose name matches `name` ignoring case, for "did you mean" hints. */
export function commandLike(name: string): string | undefined {
  const lower = name.toLowerCase();
  return commandNames.find((c) => c.toLowerCase() === lower);
}

const A = Arg;
const eventArgs = [A.TimeBase, A.ProcessId, A.ThreadId, A.CategoryId, A.Color, A.Message, A.Payload];

/** Every argument of each command, in the order of its default definition. */
export const commandArgs: readonly (readonly ArgId[])[] = [
  [A.Time, ...eventArgs], // Marker
  [A.Time, ...eventArgs], // RangePush
  [A.Time, A.TimeBase, A.ProcessId, A.ThreadId], // RangePop
  [A.Start, A.End, ...eventArgs], // RangeStartEnd
  [A.CategoryId, A.Name], // NameCategory
  [A.ParentCategoryId, A.CategoryId], // AddChildCategory
  [A.ProcessId, A.ThreadId, A.Name], // NameOsThread
  [A.ProcessId, A.Name], // NameProcess
  [A.Name], // SetFileDisplayName
];

/**
 * Arguments that may be missing from both the definition and the variables. The guide marks
 * optional arguments in italics, which its text version loses; these are the ones an event can
 * do without: the attributes of an event (category, color, message, payload) and its time base.
 * Ids, times and names are required: without them the command has nothing to act on.
 */
const optionalEventArgs = new Set<ArgId>([A.TimeBase, A.CategoryId, A.Color, A.Message, A.Payload]);

export function isOptional(command: CommandId, arg: ArgId): boolean {
  switch (command) {
    case Command.Marker:
    case Command.RangePush:
    case Command.RangeStartEnd:
      return optionalEventArgs.has(arg);
    case Command.RangePop:
      return arg === A.TimeBase;
    default:
      return false;
  }
}

/** A command definition: which arguments a call gives, in order; the others are static. */
export interface Definition {
  /** Arguments given by each call, in call order. */
  positional: readonly ArgId[];
  /** Arguments read from the variable of the same name at call time. */
  fixed: readonly ArgId[];
}

export function makeDefinition(command: CommandId, positional: readonly ArgId[]): Definition {
  return { positional, fixed: commandArgs[command].filter((a) => !positional.includes(a)) };
}

/** The definitions every file starts with (the guide's formats). */
export function defaultDefinitions(): Definition[] {
  return commandArgs.map((args, command) => makeDefinition(command as CommandId, args));
}
