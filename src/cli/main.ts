/**
 * The `nvtxview` command line (scripts/nvtxview.mjs runs this file through tsx). Tests call
 * `main(argv, io)` directly with in-memory writers; the exit status is its result:
 *   0 success, 1 a file could not be read or decoded (or --range matched nothing), 2 bad usage,
 *   3 (diff) a --fail-if threshold was passed.
 */
import { parseArgs } from 'node:util';
import { GROUP_BY_VALUES, parseDuration, type GroupBy, type SpanMode } from '../analysis/index.ts';
import { fileCounterStats, renderCounterCsv, renderCounterTable } from './counters.ts';
import { fileInfo, renderInfoCsv, renderInfoTable } from './info.ts';
import { eventJson, eventRecords } from './events.ts';
import { countIssues } from '../model/issueList.ts';
import type { Model } from '../model/types.ts';
import { csvField, terminalSafe } from './textOutput.ts';
import { breachText, diffRecords, fileComparison, renderDiffCsv, renderDiffTable } from './diff.ts';
import { parseThreshold, thresholdBreaches, type Threshold } from '../analysis/compare/index.ts';
import { CliFileError, issueText, loadFile } from './load.ts';
import { STATS_KINDS, type StatsKind } from '../analysis/cuda/statsKinds.ts';
import { fileStats, parseRangeFilter, renderStatsCsv, renderStatsTable, type OutputFormat, type StatsRequest } from './stats.ts';

/** Where output goes; `write` may return a promise to apply backpressure. */
export interface Writer {
  write(text: string): void | Promise<void>;
}

export interface CliIO {
  stdout: Writer;
  stderr: Writer;
}

export const USAGE = `Usage: nvtxview <command> [options] FILE...

Commands:
  stats FILE...    range statistics per name (nsys nvtx_sum columns, plus self time, P90, P99)
  events FILE...   every range, mark and counter sample
  counters FILE... per counter row: min, max, time-weighted average, first, last, delta, rate
  info FILE...     what each file is and holds (format, size, clock, counts, load problems) and
                   what it records about its run (command line, host, tool versions, GPUs)
  diff BASE CANDIDATE
                   compare two captures per range name (or --group-by): count, total, mean,
                   median, P90, P99 of both (A = BASE, B = CANDIDATE), their changes, names added
                   or removed, and whether a change is within the runs' noise

Options of stats:
  --format table|csv|json   output format (default table); --json is --format json
  --group-by KEY            name (default), family (name with its trailing number folded, so that
                            ProfilerStep#0, #1... compare as ProfilerStep#*), thread, process,
                            category, domain, parent, payload
  --from TIME, --to TIME    only this part of the capture (times from its start: 1.5ms, 200us, 3s, or ns)
  --range NAME[@DOMAIN]     only the time inside the instances of this range (NAME@ = default domain)
  --mode clip|overlap|contain
                            how ranges meet the --from/--to/--range scope: clipped to it (default),
                            whole if they overlap it (like nsys), or only whole ranges inside it
  --kind KIND               what to count: ranges (default: the threads' ranges), api (CUDA API
                            calls, like nsys cuda_api_sum), gpu (kernels and memory operations,
                            cuda_gpu_sum), kernels (cuda_gpu_kern_sum), memops (copies and sets)
                            Ranges still open at the end of the capture have no real duration: they
                            are counted in "unended" (a table column when there are any) and in no
                            total, mean or percentile. Name rows merge across processes (like nsys
                            nvtx_sum); --group-by process separates them.
Options of diff:
  --format, --group-by, --from, --to, --range, --mode   as for stats (applied to both captures)
  --fail-if 'NAME:COLUMN>VALUE'
                            exit with status 3 when a row passes the threshold; repeatable.
                            NAME: regular expression matching the whole row label ("net:.*");
                            COLUMN: count, total, mean, median, p90, p99; operator > >= < <=;
                            VALUE: +5% or -10% (relative change), +2ms or +3 (absolute change,
                            signed), 10ms or 100 (the candidate's figure, unsigned).
                            Changes within the runs' noise never fail (counts are exact).
Options of counters:
  --format table|csv|json   output format (default table); --json is --format json
  --from TIME, --to TIME    only this part of the capture
                            (delta counters, whose values are changes: figures over the changes)
Options of info:
  --format table|csv|json   output format (default table); --json is --format json
Options of events:
  --json                    JSON array of objects (name, kind, startNs, endNs, thread, process,
                            category, domain, color, payload, endTid for cross-thread ranges;
                            extended payloads as field name -> value; counter samples as kind
                            "counter" with the counter's name, value, unit and track path; a
                            sample without a value has value null and noValue "unavailable";
                            delta counters add valueType and runningTotal)
  --format json|csv         csv: one line per event
General:
  -h, --help                this text

Files in any format the viewer reads (sniffed from their bytes; .gz is decompressed).
Durations in JSON and CSV are integer nanoseconds where the value is an integer.
Exit status: 0 ok, 1 a file could not be read or decoded, 2 bad usage,
             3 (diff) a --fail-if threshold was passed (each one named on stderr).
`;

class UsageError extends Error {}

function nodeWriter(stream: NodeJS.WriteStream): Writer {
  return {
    write: (text) =>
      new Promise<void>((resolve, reject) => {
        // Resolve once the chunk is handed over; wait for 'drain' only when the stream asks for it.
        const ok = stream.write(text, (err) => (err ? reject(err) : undefined));
        if (ok) resolve();
        else stream.once('drain', resolve);
      }),
  };
}

export function processIO(): CliIO {
  return { stdout: nodeWriter(process.stdout), stderr: nodeWriter(process.stderr) };
}

/** Buffers small writes into larger ones (event streams). */
class BufferedWriter {
  private parts: string[] = [];
  private length = 0;
  constructor(private readonly out: Writer) {}
  async write(text: string): Promise<void> {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= 1 << 16) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.length = 0;
    await this.out.write(text);
  }
}

function parseTime(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (e) {
    throw new UsageError(`${option}: ${(e as Error).message}`);
  }
}

function parseCommand(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      format: { type: 'string' },
      'group-by': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      range: { type: 'string' },
      mode: { type: 'string' },
      'fail-if': { type: 'string', multiple: true },
      kind: { type: 'string' },
    },
  });
  return { values, positionals };
}

/** Load problems (and an empty result) go to stderr; the valid rest is still used. */
async function warnIssues(io: CliIO, path: string, model: Model): Promise<void> {
  const issues = model.issues;
  if (model.ranges.startNs.length + model.marks.timeNs.length + model.counters.timeNs.length === 0 && issues.length === 0) {
    await io.stderr.write(`${path}: no events\n`);
  }
  if (issues.length === 0) return;
  // Errors first, then warnings, then information, each in file order: five information notes
  // must not hide the error after them.
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const ordered = issues.map((issue, k) => ({ issue, k })).sort((a, b) => rank[a.issue.severity] - rank[b.issue.severity] || a.k - b.k);
  const shown = ordered.slice(0, 5).map(({ issue }) => `  ${issue.severity}: ${terminalSafe(issueText(issue))}`);
  const more = issues.length > shown.length ? `\n  ... and ${issues.length - shown.length} more` : '';
  const n = countIssues(issues);
  const counts = `${n.error} error(s), ${n.warning} warning(s), ${n.info} info`;
  await io.stderr.write(`${terminalSafe(path)}: ${counts} while loading:\n${shown.join('\n')}${more}\n`);
}

function outputFormat(values: ReturnType<typeof parseCommand>['values']): OutputFormat {
  const format = (values.json ? 'json' : (values.format ?? 'table')) as OutputFormat;
  if (!['table', 'csv', 'json'].includes(format)) throw new UsageError(`--format: "${values.format}" is not one of table, csv, json`);
  return format;
}

/** --from/--to, checked. */
function timeWindow(values: ReturnType<typeof parseCommand>['values']): { fromNs?: number; toNs?: number } {
  const fromNs = parseTime('--from', values.from);
  const toNs = parseTime('--to', values.to);
  if (fromNs !== undefined && toNs !== undefined && toNs < fromNs) throw new UsageError(`--to (${values.to}) is before --from (${values.from})`);
  return { fromNs, toNs };
}

/**
 * A table per file: each file is loaded and summarised in turn (its problems to stderr, a file that
 * cannot be read fails alone), tables printed as they come, JSON or CSV of every file's records at the end.
 */
async function runTables<S extends { records: R[] }, R>(
  io: CliIO,
  files: readonly string[],
  format: OutputFormat,
  summarise: (path: string, model: Model) => S,
  output: { table(path: string, stats: S): string; csv(records: R[]): string },
): Promise<number> {
  const records: R[] = [];
  let status = 0;
  let printed = false;
  for (const path of files) {
    let stats;
    try {
      const model = await loadFile(path);
      await warnIssues(io, path, model);
      stats = summarise(path, model);
    } catch (e) {
      await io.stderr.write(`nvtxview: ${terminalSafe((e as Error).message)}\n`);
      status = 1;
      continue;
    }
    if (format === 'table') await io.stdout.write((printed || path !== files[0] ? '\n' : '') + output.table(path, stats));
    printed = true;
    records.push(...stats.records);
  }
  if (format === 'json') await io.stdout.write(JSON.stringify(records, null, 2) + '\n');
  if (format === 'csv') await io.stdout.write(output.csv(records));
  return status;
}

async function runCounters(io: CliIO, files: readonly string[], values: ReturnType<typeof parseCommand>['values']): Promise<number> {
  const format = outputFormat(values);
  for (const option of ['group-by', 'range', 'mode', 'fail-if', 'kind'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} is an option of stats, not of counters`);
  }
  const window = timeWindow(values);
  return runTables(io, files, format, (path, model) => fileCounterStats(path, model, window), { table: renderCounterTable, csv: renderCounterCsv });
}

async function runInfo(io: CliIO, files: readonly string[], values: ReturnType<typeof parseCommand>['values']): Promise<number> {
  const format = outputFormat(values);
  for (const option of ['group-by', 'range', 'mode', 'fail-if', 'kind', 'from', 'to'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} is not an option of info`);
  }
  return runTables(io, files, format, fileInfo, { table: renderInfoTable, csv: renderInfoCsv });
}

async function runStats(io: CliIO, files: readonly string[], values: ReturnType<typeof parseCommand>['values']): Promise<number> {
  const format = outputFormat(values);
  const request = statsRequest(values);
  if (values['fail-if'] !== undefined) throw new UsageError('--fail-if is an option of diff, not of stats');
  return runTables(io, files, format, (path, model) => fileStats(path, model, request), {
    table: (path, stats) => renderStatsTable(path, stats, request.groupBy),
    csv: renderStatsCsv,
  });
}

function statsRequest(values: ReturnType<typeof parseCommand>['values']): StatsRequest {
  const groupBy = (values['group-by'] ?? 'name') as GroupBy;
  if (!GROUP_BY_VALUES.includes(groupBy)) throw new UsageError(`--group-by: "${groupBy}" is not one of ${GROUP_BY_VALUES.join(', ')}`);
  const mode = (values.mode ?? 'clip') as SpanMode;
  if (!['clip', 'overlap', 'contain'].includes(mode)) throw new UsageError(`--mode: "${mode}" is not one of clip, overlap, contain`);
  const kind = (values.kind ?? 'ranges') as StatsKind;
  if (!STATS_KINDS.includes(kind)) throw new UsageError(`--kind: "${kind}" is not one of ${STATS_KINDS.join(', ')}`);
  const request: StatsRequest = {
    groupBy,
    mode,
    kind,
    ...timeWindow(values),
    range: values.range === undefined ? undefined : parseRangeFilter(values.range),
  };
  if (request.range && request.range.name === '') throw new UsageError('--range: give a range name, e.g. --range step or --range step@mydomain');
  return request;
}

/** Exit status of a diff whose --fail-if thresholds were passed. */
export const EXIT_THRESHOLD = 3;

async function runDiff(io: CliIO, files: readonly string[], values: ReturnType<typeof parseCommand>['values']): Promise<number> {
  if (files.length !== 2) throw new UsageError(`diff: give exactly two capture files, BASE and CANDIDATE (got ${files.length})`);
  const format = outputFormat(values);
  const request = statsRequest(values);
  let thresholds: Threshold[];
  try {
    thresholds = (values['fail-if'] ?? []).map(parseThreshold);
  } catch (e) {
    throw new UsageError(`--fail-if: ${(e as Error).message}`);
  }
  const [basePath, candidatePath] = files;
  const models: Model[] = [];
  for (const path of files) {
    const model = await loadFile(path);
    await warnIssues(io, path, model);
    models.push(model);
  }
  let comparison;
  try {
    comparison = fileComparison(basePath, models[0], candidatePath, models[1], request);
  } catch (e) {
    await io.stderr.write(`nvtxview: ${(e as Error).message}\n`);
    return 1;
  }
  if (format === 'table') await io.stdout.write(renderDiffTable(basePath, candidatePath, comparison));
  if (format === 'csv') await io.stdout.write(renderDiffCsv(comparison.result));
  if (format === 'json') await io.stdout.write(JSON.stringify(diffRecords(comparison.result), null, 2) + '\n');
  const { breaches, unmatched } = thresholdBreaches(comparison.result, thresholds);
  for (const t of unmatched) await io.stderr.write(`nvtxview: warning: --fail-if '${t.text}' matches no range of either capture\n`);
  if (breaches.length === 0) return 0;
  await io.stderr.write(`nvtxview: ${breaches.length} threshold(s) passed:\n${breaches.map((b) => `  ${breachText(b)}`).join('\n')}\n`);
  return EXIT_THRESHOLD;
}

const EVENT_CSV_KEYS = [
  'file', 'kind', 'name', 'domain', 'startNs', 'endNs', 'durationNs', 'depth', 'tid', 'threadName', 'pid', 'processName',
  'category', 'categoryName', 'color', 'payload', 'unterminated', 'endTid', 'endThreadName', 'value', 'unit', 'counter',
  'noValue', 'valueType', 'runningTotal', 'row', 'correlationId', 'device', 'deviceName', 'context', 'contextName', 'stream',
  'streamName',
] as const;

async function runEvents(io: CliIO, files: readonly string[], values: ReturnType<typeof parseCommand>['values']): Promise<number> {
  const format = values.json ? 'json' : values.format;
  if (format !== 'json' && format !== 'csv') {
    throw new UsageError('events: choose an output format: --json (or --format json) or --format csv');
  }
  const out = new BufferedWriter(io.stdout);
  let status = 0;
  let first = true;
  await out.write(format === 'json' ? '[' : EVENT_CSV_KEYS.join(',') + '\n');
  for (const path of files) {
    let model;
    try {
      model = await loadFile(path);
    } catch (e) {
      await io.stderr.write(`nvtxview: ${terminalSafe((e as Error).message)}\n`);
      status = 1;
      continue;
    }
    await warnIssues(io, path, model);
    for (const record of eventRecords(path, model)) {
      if (format === 'json') {
        await out.write(`${first ? '\n' : ',\n'}${eventJson(record)}`);
        first = false;
      } else {
        const row = record as unknown as Record<string, unknown>;
        await out.write(
          EVENT_CSV_KEYS.map((k) => {
            const v = row[k];
            return csvField(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
          }).join(',') + '\n',
        );
      }
    }
  }
  if (format === 'json') await out.write(first ? ']\n' : '\n]\n');
  await out.flush();
  return status;
}

export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      await io.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command !== 'stats' && command !== 'events' && command !== 'counters' && command !== 'diff' && command !== 'info') throw new UsageError(`unknown command "${command}"`);
    let parsed;
    try {
      parsed = parseCommand(rest);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (parsed.values.help) {
      await io.stdout.write(USAGE);
      return 0;
    }
    if (parsed.positionals.length === 0) throw new UsageError(`${command}: give at least one capture file`);
    if (command === 'counters') return await runCounters(io, parsed.positionals, parsed.values);
    if (command === 'info') return await runInfo(io, parsed.positionals, parsed.values);
    if (command === 'diff') return await runDiff(io, parsed.positionals, parsed.values);
    return command === 'stats' ? await runStats(io, parsed.positionals, parsed.values) : await runEvents(io, parsed.positionals, parsed.values);
  } catch (e) {
    if (e instanceof UsageError) {
      await io.stderr.write(`nvtxview: ${e.message}\nRun "nvtxview --help" for usage.\n`);
      return 2;
    }
    if (e instanceof CliFileError) {
      await io.stderr.write(`nvtxview: ${terminalSafe(e.message)}\n`);
      return 1;
    }
    throw e;
  }
}
