/**
 * `npm run bench:compare`: how long the comparison of two captures takes to appear (issue 18's
 * target: under 2 s for two 10M-event captures). Two captures of the event generator (testkit/gen/,
 * default 10M ranges + marks each, different seeds) are built directly with ModelBuilder; the figure
 * is `compareCaptures` (the statistics table of each side, a sample of each group's durations, the noise test per row), median of several
 * runs after a warm-up. Options: --events N, --runs N, --json.
 */
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { compareCaptures } from '../../src/analysis/compare/index.ts';
import { buildGeneratedModel } from '../../testkit/gen/model.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const events = Number(values.events);
const runs = Math.max(1, Number(values.runs));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const t0 = performance.now();
const base = buildGeneratedModel({ events, seed: 1, threads: 16 });
const candidate = buildGeneratedModel({ events, seed: 2, threads: 16 });
const buildS = (performance.now() - t0) / 1000;
let rows = 0;
compareCaptures(base, candidate); // warm-up
const times: number[] = [];
for (let r = 0; r < runs; r++) {
  const t = performance.now();
  rows = compareCaptures(base, candidate).rows.length;
  times.push(performance.now() - t);
}
const figure = {
  events,
  rangesBase: base.ranges.startNs.length,
  rangesCandidate: candidate.ranges.startNs.length,
  rows,
  compareMs: Math.round(median(times)),
  runsMs: times.map((t) => Math.round(t)),
  buildS: Math.round(buildS),
  cpus: cpus().length,
  loadavg: loadavg().map((l) => Number(l.toFixed(2))),
};
if (values.json) process.stdout.write(JSON.stringify(figure) + '\n');
else {
  process.stdout.write(
    `compare two captures of ${events.toLocaleString('en')} events (${figure.rangesBase.toLocaleString('en')} + ${figure.rangesCandidate.toLocaleString('en')} ranges, ${rows} rows): ` +
      `${figure.compareMs} ms (median of ${runs}; runs ${figure.runsMs.join(', ')} ms)\n` +
      `models built in ${figure.buildS} s; ${figure.cpus} CPUs, load average ${figure.loadavg.join(' ')}\n`,
  );
}
