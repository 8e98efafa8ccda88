/**
 * The formats the page opens, as the empty state lists them. A copy of the labels of the importer
 * table (src/import/formats.ts): importing that table here would pull every decoder (and the
 * SQLite engine's glue) into the page bundle, when they belong in the worker only.
 * formatList.test.ts keeps this list equal to the table.
 */
export interface FormatEntry {
  id: string;
  label: string;
  extensions: readonly string[];
}

export const FORMAT_LIST: readonly FormatEntry[] = [
  { id: 'nvtxc', label: 'nvtxview native capture (.nvtxc)', extensions: ['nvtxc'] },
  { id: 'nsys-sqlite', label: 'Nsight Systems SQLite export', extensions: ['sqlite', 'sqlite3', 'db'] },
  { id: 'chrome-json', label: 'Chrome trace JSON', extensions: ['json', 'trace'] },
  { id: 'nvtxt', label: 'NVTXT text', extensions: ['nvtxt'] },
];
