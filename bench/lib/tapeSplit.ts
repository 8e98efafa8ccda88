/**
 * Where the time of a two-thread load goes (docs/performance.md, "Two workers"): for one file, the
 * one-thread load, then its decode side alone (decode into a tape, batches kept) and its build side
 * alone (replay of those batches, then finish), alternated, in CPU ms of this thread. For a Chrome
 * trace, also the split load's parse side alone (records kept) and build side alone (dispatch from
 * the records, then finish; src/import/chromeSplit.ts).
 *   node scripts/run-ts.mjs bench/lib/tapeSplit.ts FILE [rounds]
 */
import { cpuUsage } from 'node:process';
import { loadavg } from 'node:os';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import { TapeBuild, TapeDecode, type TapeMessage } from '../../src/import/tapePipeline.ts';
import { ChromeSplitBuild, ChromeSplitParse, type SplitMessage } from '../../src/import/chromeSplit.ts';

const [path, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 2);
const cpuMs = (f: () => Promise<void>) => async () => {
  const c0 = cpuUsage();
  const t0 = performance.now();
  await f();
  const c = cpuUsage(c0);
  return { cpuMs: Math.round((c.user + c.system) / 1000), wallMs: Math.round(performance.now() - t0) };
};

for (let r = 0; r < rounds; r++) {
  const direct = await cpuMs(async () => {
    const src = await fileSource(path);
    await loadModel(src);
    await src.close();
  })();
  const messages: TapeMessage[] = [];
  const decode = await cpuMs(async () => {
    const src = await fileSource(path);
    // Batches are kept for the build side's turn: each is counted back at once (a copy that is too short to reuse), so the decode does not wait for them.
    const tape: TapeDecode = new TapeDecode((m) => {
      messages.push(m);
      if (m.type === 'batch') tape.recycle({ ...m.batch, op: m.batch.op.subarray(0, 0) });
    });
    await tape.run(src, {});
    await src.close();
  })();
  let rows = 0;
  for (const m of messages) if (m.type === 'batch') rows += m.batch.count;
  const build = await cpuMs(async () => {
    const b = new TapeBuild(undefined, { stopDecode: () => {} });
    for (const m of messages.splice(0)) b.accept(m);
    if (!b.result || !('model' in b.result)) throw new Error('no model');
  })();
  const split: SplitMessage[] = [];
  let notChrome = false;
  const parseSide = await cpuMs(async () => {
    const src = await fileSource(path);
    // Each slice is kept for the build side's turn; the parse side gets fresh arrays back, as if it had been decoded.
    const parse: ChromeSplitParse = new ChromeSplitParse((m) => {
      split.push(m);
      if (m.type === 'split-slice') parse.recycle({ ...m.slice, ints: new Int32Array(m.slice.ints.length), nums: new Float64Array(m.slice.nums.length) });
    });
    notChrome = (await parse.run(src, {})) !== undefined;
    await src.close();
  })();
  const splitBuildSide = await cpuMs(async () => {
    if (notChrome) return;
    const b = new ChromeSplitBuild(undefined, { stopDecode: () => {} });
    for (const m of split.splice(0)) b.accept(m);
    if (!b.result || !('model' in b.result)) throw new Error('no model');
  })();
  const chromeSplit = notChrome ? undefined : { parseSide, buildSide: splitBuildSide };
  console.log(JSON.stringify({ round: r + 1, loadAverage: loadavg()[0], direct, decodeSide: decode, buildSide: build, tapeRows: rows, chromeSplit }));
}
