/** Text output of the command line: aligned tables, CSV, JSON numbers (figures come from src/format/). */
import { csvLines, csvQuote } from '../format/csv.ts';

/** A number for JSON/CSV: integers stay exact; fractions are rounded to `decimals` places. */
export function jsonNumber(x: number, decimals = 3): number | null {
  if (!Number.isFinite(x)) return null;
  if (Number.isInteger(x)) return x;
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

export interface Column<T> {
  title: string;
  value: (row: T) => string;
  /** Right-align (numbers). */
  right?: boolean;
  /** Longer values are cut with an ellipsis (tables only). */
  maxChars?: number;
}

/** `text` cut to `max` characters, the last one an ellipsis. */
export function elide(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Text from a capture made safe to print on a terminal: C0/C1 control characters and DEL (escape
 * sequences that recolour, retitle or rewrite the terminal) are shown as `\x1b`-style escapes.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Rows as an aligned text table with a header and a rule; cell text is made terminal-safe. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => terminalSafe(c.maxChars === undefined ? c.value(row) : elide(c.value(row), c.maxChars)).replace(/[\t\n]/g, ' ')));
  // A loop, not Math.max(...cells): a table of 200,000 names would overflow the call stack.
  const width = columns.map((c) => c.title.length);
  for (const r of cells) for (let i = 0; i < r.length; i++) if (r[i].length > width[i]) width[i] = r[i].length;
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => (columns[i].right ? v.padStart(width[i]) : i === values.length - 1 ? v : v.padEnd(width[i])))
      .join('  ')
      .trimEnd();
  const out = [line(columns.map((c) => c.title)), line(width.map((w) => '-'.repeat(w)))];
  for (const r of cells) out.push(line(r));
  return out.join('\n') + '\n';
}

/** One CSV field of any value; null and undefined are empty. */
export function csvField(value: unknown): string {
  return value === null || value === undefined ? '' : csvQuote(String(value));
}

export function renderCsv(rows: readonly Record<string, unknown>[], keys: readonly string[]): string {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return csvLines([keys, ...rows.map((row) => keys.map((k) => text(row[k])))], '\n');
}
