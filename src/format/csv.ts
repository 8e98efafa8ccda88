/** CSV text (RFC 4180 quoting), shared by the command line and the page's exports. */

/** One field: quoted when it holds a separator, a quote, a line break or white space at an edge. */
export function csvQuote(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records of already formatted fields, one line each, every line ended by `eol`. */
export function csvLines(records: readonly (readonly string[])[], eol: string): string {
  return records.map((r) => r.map(csvQuote).join(',') + eol).join('');
}
