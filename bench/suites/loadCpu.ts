/**
 * CPU of one load in Node, and of its `finish()`, for two checkouts side by side: each load runs
 * in a fresh process (`loadModel` over the file's bytes in memory, the load worker's path without
 * the page), alternating this checkout and `--against DIR` (another checkout's root, e.g. a
 * `git archive` of main with node_modules linked), so that both see the same machine load.
 *
 *   node scripts/run-ts.mjs bench/run.ts load-cpu --file capture.nvtxc [--against DIR] [--runs N] [--warm-up] [--decoder-only] [--json]
 *
 * `--warm-up` adds a third side, this checkout after the load worker's JIT warm-up
 * (src/worker/warmUp.ts, as a spare worker runs it while the page is idle): the first load of a
 * fresh worker with and without it.
 *
 * `--decoder-only` turns the builder's per-event calls into no-ops: the CPU left is the decoder's.
 *
 * Per load: wall and CPU ms of the whole load, and of `ModelBuilder.finish()` (timed by wrapping
 * it); the medians per checkout, and the load average before and after. The file is read into a
 * plain Uint8Array (a Node Buffer's `slice` is a view, which the native decoder does not expect).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    against: { type: 'string' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    child: { type: 'string' },
    'warm-up': { type: 'boolean', default: false },
    /** The builder's per-event calls do nothing: the CPU left is the decoder's (with names, threads, styles and finish() of an empty model). */
    'decoder-only': { type: 'boolean', default: false },
  },
});
if (!values.file) {
  process.stderr.write('usage: bench/run.ts load-cpu --file CAPTURE [--against CHECKOUT] [--runs N] [--json]\n');
  process.exit(2);
}

interface LoadFigures {
  wallMs: number;
  cpuMs: number;
  finishWallMs: number;
  finishCpuMs: number;
  ranges: number;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One load with the modules of checkout `root`, in this process. */
async function loadOnce(root: string, file: string, warm: boolean): Promise<LoadFigures> {
  if (warm) {
    const { warmUp } = (await import(join(root, 'src/worker/warmUp.ts'))) as typeof import('../../src/worker/warmUp.ts');
    await warmUp(() => false);
  }
  const { loadModel, memorySource } = (await import(join(root, 'src/import/pipeline.ts'))) as typeof import('../../src/import/pipeline.ts');
  const { ModelBuilder } = (await import(join(root, 'src/model/builder.ts'))) as typeof import('../../src/model/builder.ts');
  let finishWallMs = 0;
  let finishCpuMs = 0;
  const finish = ModelBuilder.prototype.finish;
  ModelBuilder.prototype.finish = function (this: InstanceType<typeof ModelBuilder>) {
    const c = cpuMs();
    const t = performance.now();
    const model = finish.call(this);
    finishWallMs += performance.now() - t;
    finishCpuMs += cpuMs() - c;
    return model;
  };
  if (values['decoder-only']) {
    const perEvent = ModelBuilder.prototype as unknown as Record<string, () => void>;
    for (const m of ['push', 'pop', 'mark', 'rangeStart', 'rangeEnd', 'startEnd', 'pushStyled', 'popAt', 'markStyled', 'directStack']) perEvent[m] = () => {};
  }
  const buffer = readFileSync(file);
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  const c = cpuMs();
  const t = performance.now();
  const model = await loadModel(memorySource(file, bytes));
  return { wallMs: performance.now() - t, cpuMs: cpuMs() - c, finishWallMs, finishCpuMs, ranges: model.ranges.startNs.length };
}

if (values.child !== undefined) {
  process.stdout.write(JSON.stringify(await loadOnce(values.child, resolve(values.file), values['warm-up'])) + '\n');
} else {
  const here = resolve(import.meta.dirname, '../..');
  /** A checkout's root, with ' (warmed up)' for the side that runs the warm-up first. */
  const WARMED = ' (warmed up)';
  const sides = [here, ...(values['warm-up'] ? [here + WARMED] : []), ...(values.against ? [resolve(values.against)] : [])];
  const perSide = sides.map(() => [] as LoadFigures[]);
  const loadBefore = loadavg()[0];
  for (let run = 0; run < Number(values.runs); run++) {
    sides.forEach((root, s) => {
      const warm = root.endsWith(WARMED);
      const args = ['load-cpu', '--file', resolve(values.file!), '--child', warm ? root.slice(0, -WARMED.length) : root, ...(warm ? ['--warm-up'] : []), ...(values['decoder-only'] ? ['--decoder-only'] : [])];
      const out = execFileSync(process.execPath, [join(here, 'scripts/run-ts.mjs'), join(here, 'bench/run.ts'), ...args], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      perSide[s].push(JSON.parse(out.trim().split('\n').pop()!) as LoadFigures);
    });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const result = {
    file: values.file,
    loadAverage: [loadBefore, loadavg()[0]],
    sides: sides.map((root, s) => ({
      root,
      runs: perSide[s],
      median: Object.fromEntries((['wallMs', 'cpuMs', 'finishWallMs', 'finishCpuMs'] as const).map((k) => [k, Math.round(median(perSide[s].map((r) => r[k])))])),
    })),
  };
  if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    process.stdout.write(`${values.file}, load average ${result.loadAverage.map((x) => x.toFixed(2)).join(' -> ')}\n`);
    for (const side of result.sides) {
      const m = side.median;
      process.stdout.write(`${side.root}: median of ${side.runs.length}: ${m.wallMs} ms wall, ${m.cpuMs} ms CPU; finish() ${m.finishWallMs} ms wall, ${m.finishCpuMs} ms CPU (${side.runs[0].ranges} ranges)\n`);
      process.stdout.write(`  CPU per run: ${side.runs.map((r) => Math.round(r.cpuMs)).join(', ')}; finish() CPU: ${side.runs.map((r) => Math.round(r.finishCpuMs)).join(', ')}\n`);
    }
  }
}
