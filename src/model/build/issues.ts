/**
 * The load report a builder collects, and source locations packed into one number per event
 * (a line, a byte offset, or none) so that rows keep them in a typed column.
 */
import { IssueList } from '../issueList.ts';
import type { LoadIssue } from '../types.ts';
import type { SourceLocation } from './inputs.ts';
import { MAX_STRING_CHARS, cutString } from './stringCuts.ts';

/** Location code of "no location". */
export const NO_LOC = -1;

/** One number for a location: a line as itself, a byte offset as -2 - offset, none as NO_LOC. */
export function locCode(where: SourceLocation | undefined): number {
  if (!where) return NO_LOC;
  if (where.line !== undefined) return where.line;
  if (where.offset !== undefined) return offsetLocCode(where.offset);
  return NO_LOC;
}

/** The `locCode` of a byte offset, for hot paths that have no location object. */
export function offsetLocCode(offset: number): number {
  return -2 - offset;
}

/** The location of a `locCode`. */
export function locOf(code: number): SourceLocation | undefined {
  if (code === NO_LOC) return undefined;
  return code >= 0 ? { line: code } : { offset: -2 - code };
}

/** Problems found while building, each naming the file; repeats grouped and bounded (src/model/issueList.ts). */
export class IssueLog {
  readonly list = new IssueList();

  constructor(private readonly fileName: string) {}

  /**
   * Records a problem; `file` is filled in. Instrumentation problems also give their kind, time
   * (in the decoder's ns, shifted to the model's zero when the model is assembled) and thread.
   */
  report(severity: LoadIssue['severity'], message: string, where?: SourceLocation & Pick<LoadIssue, 'kind' | 'timeNs' | 'thread'>): void {
    // A message may quote what it is about (a name of any length): bounded like the model's strings.
    this.list.add({ severity, file: this.fileName, message: message.length > MAX_STRING_CHARS ? cutString(message) : message, ...where });
  }

  get count(): number {
    return this.list.count;
  }
}
