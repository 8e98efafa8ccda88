/**
 * `nvtxview info`: what each file is and holds, and what it records about its run, as the page's
 * Capture tab shows it (src/analysis/captureFacts.ts).
 */
import { captureFacts, type CaptureFacts } from '../analysis/captureFacts.ts';
import { importers } from '../import/formats.ts';
import type { Model } from '../model/types.ts';
import { renderCsv, renderTable, terminalSafe, type Column } from './textOutput.ts';

export interface InfoRecord {
  file: string;
  /** 'file': what nvtxview knows of it; 'recorded': what the file records about itself. */
  section: 'file' | 'recorded';
  key: string;
  value: string;
}

export const INFO_RECORD_KEYS: readonly (keyof InfoRecord)[] = ['file', 'section', 'key', 'value'];

export interface FileInfo {
  facts: CaptureFacts;
  records: InfoRecord[];
}

export function fileInfo(file: string, model: Model): FileInfo {
  const id = model.capture.format;
  const facts = captureFacts(model, { formatLabel: importers.find((i) => i.id === id)?.label ?? id });
  const records: InfoRecord[] = [
    ...facts.facts.map(([key, value]) => ({ file, section: 'file' as const, key, value })),
    ...facts.properties.map(([key, value]) => ({ file, section: 'recorded' as const, key, value })),
  ];
  return { facts, records };
}

/** Longest value a table shows (the CSV and JSON keep all of it). */
const TABLE_VALUE_CHARS = 160;

const TABLE: Column<InfoRecord>[] = [
  { title: 'Key', value: (r) => r.key },
  { title: 'Value', value: (r) => r.value, maxChars: TABLE_VALUE_CHARS },
];

export function renderInfoTable(file: string, info: FileInfo): string {
  const file_ = info.records.filter((r) => r.section === 'file');
  const recorded = info.records.filter((r) => r.section === 'recorded');
  let out = `${terminalSafe(file)}\n${renderTable(file_, TABLE)}`;
  out += recorded.length > 0 ? `\nRecorded in the file:\n${renderTable(recorded, TABLE)}` : '\n(the file records nothing about its run)\n';
  return out;
}

export function renderInfoCsv(records: readonly InfoRecord[]): string {
  return renderCsv(records as unknown as Record<string, unknown>[], INFO_RECORD_KEYS);
}
