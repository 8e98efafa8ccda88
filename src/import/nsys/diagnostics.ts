/**
 * What Nsight Systems itself noted while recording (DIAGNOSTIC_EVENT: the GUI's Diagnostics
 * Summary), passed on in the load report: its errors as warnings, its warnings as information, so
 * that a capture nsys knows to be incomplete never reads as "no problems". Informational notes
 * ("Profiling has started.") are only counted, in the capture's properties.
 */
import type { ModelBuilder } from '../../model/builder.ts';
import { quoteId, type Schema } from './schema.ts';

const TABLE = 'DIAGNOSTIC_EVENT';

/** ENUM_DIAGNOSTIC_SEVERITY_LEVEL (every export so far: 0 unknown, 1 info, 2 warning, 3 error, 4 verbose). */
const SEVERITY = { warning: 2, error: 3 } as const;

/** Distinct messages listed per severity; the rest are counted. */
const MAX_LISTED = 20;

interface Noted {
  text: string;
  count: number;
  pids: Set<number>;
}

export function reportDiagnostics(schema: Schema, b: ModelBuilder): void {
  if (!schema.has(TABLE) || schema.missing(TABLE, ['severity', 'text']).length > 0) return;
  // The text is a string in the exports seen (2024-2025); older schemas may give a StringIds id.
  // Only an integer is looked up: a text of digits would otherwise match an id (numeric affinity).
  const ids = schema.has('StringIds');
  const text = ids ? `CASE WHEN typeof(d.text) = 'integer' THEN s.value ELSE d.text END` : 'd.text';
  const join = ids ? ` LEFT JOIN StringIds s ON typeof(d.text) = 'integer' AND s.id = d.text` : '';
  const pid = schema.hasColumn(TABLE, 'globalPid') ? '(d.globalPid >> 24) & 16777215' : 'NULL';
  const order = schema.hasColumn(TABLE, 'timestamp') ? ' ORDER BY d.timestamp' : '';
  const rows = schema.rows(TABLE, `SELECT d.severity, ${text}, ${pid} FROM ${quoteId(TABLE)} d${join}${order}`);
  const bySeverity = new Map<number, Map<string, Noted>>();
  let info = 0;
  for (const [severity, message, processId] of rows) {
    if (severity !== SEVERITY.warning && severity !== SEVERITY.error) {
      info++;
      continue;
    }
    const t = String(message ?? '').trim() || '(no text)';
    let notes = bySeverity.get(severity);
    if (!notes) bySeverity.set(severity, (notes = new Map()));
    let noted = notes.get(t);
    if (!noted) notes.set(t, (noted = { text: t, count: 0, pids: new Set() }));
    noted.count++;
    if (typeof processId === 'number' && processId > 0) noted.pids.add(processId);
  }
  const errors = bySeverity.get(SEVERITY.error);
  const warnings = bySeverity.get(SEVERITY.warning);
  if (rows.length > 0) {
    b.setProperty('Nsight Systems diagnostics', `${errors ? countOf(errors) : 0} error(s), ${warnings ? countOf(warnings) : 0} warning(s), ${info} note(s)`);
  }
  if (errors) report(b, 'warning', 'Nsight Systems reported an error while recording', errors);
  if (warnings) report(b, 'info', 'Nsight Systems warned while recording', warnings);
}

function countOf(notes: Map<string, Noted>): number {
  let n = 0;
  for (const noted of notes.values()) n += noted.count;
  return n;
}

function report(b: ModelBuilder, severity: 'warning' | 'info', lead: string, notes: Map<string, Noted>): void {
  const list = [...notes.values()];
  for (const noted of list.slice(0, MAX_LISTED)) b.report(severity, `${lead}: ${noted.text}${where(noted)}`);
  if (list.length > MAX_LISTED) b.report(severity, `${lead}: ${list.length - MAX_LISTED} more distinct message(s) (DIAGNOSTIC_EVENT table)`);
}

function where(noted: Noted): string {
  const pids = [...noted.pids];
  const processes = pids.length === 0 ? '' : pids.length === 1 ? `process ${pids[0]}` : `${pids.length} processes`;
  const times = noted.count > 1 ? `${noted.count} times` : '';
  const parts = [processes, times].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
