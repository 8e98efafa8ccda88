/**
 * How a track tree label is cut when the column is narrow: never at its end, where thread ids and
 * other numbers sit ("tid 51306" must not read "tid 5"), but in the middle. The label is split into
 * a head that may be elided (CSS ellipsis) and a tail that always shows.
 */

/** Characters kept at the end of a label with no number or short last word to keep. */
const PLAIN_TAIL_CHARS = 6;
/** A last word longer than this is cut like a single word. */
const MAX_TAIL_WORD_CHARS = 20;
/** Between the steps of a pinned row's path label (src/timeline/trackLayout.ts). */
const PATH_SEPARATOR = ' › ';
/** The last step of a path label (separator included) is kept whole up to this length. */
const MAX_TAIL_STEP_CHARS = 32;

export interface LabelParts {
  head: string;
  tail: string;
}

/**
 * Splits a label for middle elision: the tail is the last word with the space before it
 * ("renderer" + " (1844)", "Thread" + " 51306"), or the last few characters of a single word.
 */
export function splitLabel(label: string): LabelParts {
  // A path (a pinned row: "process › thread › Push/Pop") keeps its last step whole: it names the row.
  const step = label.lastIndexOf(PATH_SEPARATOR);
  if (step > 0 && label.length - step <= MAX_TAIL_STEP_CHARS) return { head: label.slice(0, step), tail: label.slice(step) };
  const space = label.lastIndexOf(' ');
  if (space > 0 && label.length - space - 1 <= MAX_TAIL_WORD_CHARS) return { head: label.slice(0, space), tail: label.slice(space) };
  if (label.length <= PLAIN_TAIL_CHARS * 2) return { head: label, tail: '' };
  // Code points, so a surrogate pair is never split.
  const chars = Array.from(label);
  return { head: chars.slice(0, -PLAIN_TAIL_CHARS).join(''), tail: chars.slice(-PLAIN_TAIL_CHARS).join('') };
}

/**
 * The detail shown beside a label, or undefined when it only repeats the label's number (a thread
 * labelled "main (4880)" or "Thread 4880" needs no "tid 4880" beside it).
 */
export function shownDetail(label: string, detail: string | undefined): string | undefined {
  if (!detail) return undefined;
  const id = /^(?:pid|tid) (\d+)$/.exec(detail);
  if (id && new RegExp(`(?:^|\\D)${id[1]}(?:\\D|$)`).test(label)) return undefined;
  return detail;
}
