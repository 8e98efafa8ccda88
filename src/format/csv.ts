/** CSV text (RFC 4180 quoting), shared by the command line and the page's exports. */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A text a spreadsheet would run as a formula (starts with =, +, -, @, tab or CR; a capture's range
 * named `=HYPERLINK(...)`) gets a leading apostrophe, the usual neutralisation (OWASP "CSV
 * injection"); numbers such as -5 or +1e3 stay numbers.
 */
export function csvNeutralise(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One field: neutralised when a spreadsheet would read it as a formula, quoted when it holds a
 * separator, a quote, a line break or white space at an edge.
 */
export function csvQuote(field: string): string {
  const text = csvNeutralise(field);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records of already formatted fields, one line each, every line ended by `eol`. */
export function csvLines(records: readonly (readonly string[])[], eol: string): string {
  return records.map((r) => r.map(csvQuote).join(',') + eol).join('');
}
