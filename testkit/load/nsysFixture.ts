/**
 * Test support for checks against a real Nsight Systems export: the file loaded through the
 * pipeline, the same bytes opened as a database for reference queries, and the mapping from nsys
 * timestamps to model time.
 */
import { readFileSync } from 'node:fs';
import type { Model } from '../../src/model/types.ts';
import { loadModel, memorySource } from '../../src/import/pipeline.ts';
import { openDatabase, type Database } from '../../src/import/nsys/sqlite.ts';

import { NSYS_FIXTURE } from '../fixtures.ts';

export { NSYS_FIXTURE };

export interface NsysFixture {
  bytes: Uint8Array;
  model: Model;
  db: Database;
  /** All rows of a query. */
  rows(sql: string, params?: Record<string, number>): unknown[][];
  /** Model time of an nsys timestamp. */
  toModel(t: number): number;
}

export async function openNsysFixture(path = NSYS_FIXTURE): Promise<NsysFixture> {
  const bytes = new Uint8Array(readFileSync(path));
  const model = await loadModel(memorySource(path.slice(path.lastIndexOf('/') + 1), bytes));
  const db = await openDatabase(bytes);
  const rows = (sql: string, params: Record<string, number> = {}): unknown[][] => {
    const st = db.prepare(sql);
    st.bind(params);
    const out: unknown[][] = [];
    while (st.step()) out.push(st.get());
    st.free();
    return out;
  };
  // nsys timestamps count from the session start; the model counts from its own origin.
  const [[utc]] = rows('SELECT CAST(utcEpochNs AS TEXT) FROM TARGET_INFO_SESSION_START_TIME');
  const zero = Number(BigInt(model.capture.originNs) - BigInt(utc as string));
  return { bytes, model, db, rows, toModel: (t) => t - zero };
}
