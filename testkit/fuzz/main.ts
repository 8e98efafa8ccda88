/**
 * The long fuzz run:
 *   npm run fuzz -- --format nvtxt --cases 5000 --seed 1 [--first 0] [--out fuzz-out] [--max-depth 70000]
 *     [--fixture-bytes N] [--seed-events N] [--resume]
 * `--format all` runs every kind in turn. The summary so far is written every 100 cases; `--resume`
 * goes on after the last case it counts (a long run can be stopped and continued, or split into
 * several seeds whose summaries add up). Reproducers (inputs that hang, throw or break the model)
 * are saved under --out with their format, seed, case number and outcome in the name, and a
 * summary (counts, slowest case, each failure's message) is written there as JSON and printed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FUZZ_FORMATS, type FuzzFormat } from './cases.ts';
import { runFuzz, type FuzzSummary } from './harness.ts';

/** Writes the summary whole or not at all: a run stopped mid-write keeps its last checkpoint. */
function saveSummary(file: string, summary: FuzzSummary): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(summary, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
}

function summaryLine(s: FuzzSummary): string {
  const c = s.counts;
  const slow = s.slowest ? `${s.slowest.ms} ms (case ${s.slowest.index}, ${s.slowest.bytes} bytes from ${s.slowest.from}, ${s.slowest.outcome})` : '-';
  const perCase = `${(s.wallMs / Math.max(1, s.cases)).toFixed(1)} ms (${(s.caseMs / Math.max(1, s.cases)).toFixed(1)} checking)`;
  return `| ${s.format} | ${s.seed} | ${s.cases} | ${c.loaded} | ${c.refused} | ${c.hang} | ${c.exception} | ${c['invalid-model']} | ${slow} | ${perCase} | ${(s.wallMs / 60000).toFixed(1)} min | ${s.load.min.toFixed(1)}-${s.load.max.toFixed(1)} (mean ${s.load.mean}) |`;
}

const OPTIONS = {
  help: { type: 'boolean', default: false },
  format: { type: 'string', default: 'all' },
  cases: { type: 'string', default: '1000' },
  first: { type: 'string', default: '0' },
  seed: { type: 'string', default: '1' },
  out: { type: 'string', default: 'fuzz-out' },
  'max-depth': { type: 'string', default: '70000' },
  'fixture-bytes': { type: 'string', default: String(4 << 20) },
  'seed-events': { type: 'string' },
  resume: { type: 'boolean', default: false },
  factor: { type: 'string', default: '10' },
  'floor-ms': { type: 'string', default: '2000' },
} as const;

const USAGE = `usage: npm run fuzz -- [--format all|${FUZZ_FORMATS.join('|')}[,...]] [--cases N] [--seed N] [--first N]
  [--out DIR] [--max-depth N] [--fixture-bytes N] [--seed-events N] [--resume] [--factor N] [--floor-ms N]
(testkit/fuzz/README.md says what each option does)
`;

/** The command line, or the usage on --help (exit 0) and on a wrong option (exit 2, with why). */
function commandLine() {
  try {
    const parsed = parseArgs({ options: OPTIONS });
    if (parsed.values.help) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    return parsed.values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}


async function run(): Promise<void> {
  const values = commandLine();
  const formats = values.format === 'all' ? [...FUZZ_FORMATS] : (values.format!.split(',') as FuzzFormat[]);
  for (const f of formats) if (!FUZZ_FORMATS.includes(f)) throw new Error(`--format: "${f}" is not one of all, ${FUZZ_FORMATS.join(', ')}`);
  const out = resolve(values.out!);
  mkdirSync(out, { recursive: true });
  const seed = Number(values.seed);
  const summaries: FuzzSummary[] = [];
  for (const format of formats) {
    let done = 0;
    const cases = Number(values.cases);
    const first = Number(values.first);
    const file = join(out, `summary-${format}-s${seed}${first ? `-from${first}` : ''}.json`);
    const resume = values.resume && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FuzzSummary) : undefined;
    if (resume) process.stdout.write(`${format}: resuming after ${resume.cases} cases\n`);
    done = resume?.cases ?? 0;
    const summary = await runFuzz({
      format,
      cases,
      first,
      resume,
      seedEvents: values['seed-events'] === undefined ? undefined : Number(values['seed-events']),
      seed,
      scale: { maxDepth: Number(values['max-depth']) },
      fixtureBytes: Number(values['fixture-bytes']),
      factor: Number(values.factor),
      floorMs: Number(values['floor-ms']),
      saveTo: out,
      onSummary: (soFar) => saveSummary(file, soFar),
      onCase: (c, result) => {
        done++;
        if (result.outcome === 'exception' || result.outcome === 'invalid-model' || result.outcome === 'hang') {
          process.stdout.write(`${format} case ${c.index} (${c.from}): ${result.outcome}: ${result.detail?.slice(0, 300)}\n`);
        }
        if (done % 500 === 0) process.stdout.write(`${format}: ${done}/${cases}\n`);
      },
    });
    summaries.push(summary);
    saveSummary(file, summary);
    process.stdout.write(`${format}: done in ${(summary.wallMs / 1000).toFixed(0)} s\n`);
  }
  process.stdout.write('\n| format | seed | cases | loaded | refused | hang | exception | invalid model | slowest case | per case | run time | load average |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n');
  for (const s of summaries) process.stdout.write(summaryLine(s) + '\n');
  const failed = summaries.some((s) => s.failures.length > 0);
  if (failed) process.stdout.write(`\nReproducers in ${out}\n`);
  process.exitCode = failed ? 1 : 0;
}

run().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exitCode = 2;
});
