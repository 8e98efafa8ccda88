/**
 * The collector's shape: its C units depend on each other without a circle, and the capture format
 * has one description on both sides (collector/src/format.h and src/import/native/format.ts agree on
 * every constant the C header defines).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as format from '../../src/import/native/format.ts';

const src = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'src');

/** Unit (file stem) -> units whose headers it (its .c or .h) includes. */
function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of readdirSync(src).filter((f) => /\.[ch]$/.test(f))) {
    const unit = file.replace(/\.[ch]$/, '');
    const deps = graph.get(unit) ?? new Set<string>();
    graph.set(unit, deps);
    for (const m of readFileSync(join(src, file), 'utf8').matchAll(/^#include "([\w]+)\.h"/gm)) {
      if (m[1] !== unit) deps.add(m[1]);
    }
  }
  return graph;
}

/** A circle of units, or null. */
function findCircle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (u: string): string[] | null => {
    state.set(u, 'open');
    path.push(u);
    for (const v of [...(graph.get(u) ?? [])].sort()) {
      if (state.get(v) === 'open') return [...path.slice(path.indexOf(v)), v];
      if (!state.has(v)) {
        const found = visit(v);
        if (found) return found;
      }
    }
    path.pop();
    state.set(u, 'done');
    return null;
  };
  for (const u of [...graph.keys()].sort()) {
    if (!state.has(u)) {
      const found = visit(u);
      if (found) return found;
    }
  }
  return null;
}

describe('collector units', () => {
  it('include each other without a circle', () => {
    const graph = unitGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(findCircle(graph)).toBeNull();
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCircle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keep the process-wide state and locks in a unit that depends on nothing of the collector', () => {
    const graph = unitGraph();
    const reach = (u: string, seen = new Set<string>()): Set<string> => {
      for (const v of graph.get(u) ?? []) if (!seen.has(v)) reach(v, seen.add(v));
      return seen;
    };
    expect([...reach('collector')].sort()).toEqual(['clock', 'format']);
  });
});

/** The constants of format.h: enum members and #defines, evaluated. */
function cConstants(): Map<string, number | string> {
  const text = readFileSync(join(src, 'format.h'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  const out = new Map<string, number | string>();
  const value = (expr: string): number | string => {
    const e = expr.trim();
    if (e.startsWith('"')) return JSON.parse(e.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')) as string;
    const substituted = e.replace(/NVTXC_\w+/g, (name) => String(out.get(name))).replace(/(\d)u\b/g, '$1');
    if (!/^(0x[\da-fA-F]+|[\d\s()*+<-])+$/.test(substituted)) throw new Error(`cannot evaluate ${expr}`);
    return Number(new Function(`return (${substituted});`)());
  };
  for (const m of text.matchAll(/^#define (NVTXC_\w+)[ \t]+(.+)$/gm)) out.set(m[1], value(m[2]));
  for (const body of text.matchAll(/enum\s*\{([^}]*)\}/g)) {
    for (const m of body[1].matchAll(/(NVTXC_\w+)\s*=\s*([^,]+)/g)) out.set(m[1], value(m[2]));
  }
  return out;
}

const pascal = (upper: string): string =>
  upper
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** format.h name -> the format.ts value it must equal. */
function tsValueOf(name: string): number | string | undefined {
  const scalars: Record<string, number | string> = {
    NVTXC_MAGIC: String.fromCharCode(...format.MAGIC),
    NVTXC_MAJOR: format.MAJOR_VERSION,
    NVTXC_MINOR: format.MINOR_VERSION,
    NVTXC_FILE_HEADER_SIZE: format.FILE_HEADER_SIZE,
    NVTXC_CHUNK_HEADER_SIZE: format.CHUNK_HEADER_SIZE,
    NVTXC_OPEN_COMMIT_AT: format.OPEN_COMMIT_AT,
    NVTXC_OPEN_EVENTS_AT: format.OPEN_EVENTS_AT,
    NVTXC_OPEN_VARINT_WIDTH: format.OPEN_VARINT_WIDTH,
    NVTXC_OPEN_EVENTS_HEADER: format.OPEN_EVENTS_HEADER,
    NVTXC_CUDA_NO_ID: format.CUDA_NO_ID,
  };
  if (name in scalars) return scalars[name];
  const groups: [string, Record<string, number>, Record<string, string>?][] = [
    ['NVTXC_CHUNK_', format.Chunk],
    ['NVTXC_PROC_', format.ProcessTag, { CMDLINE: 'CommandLine' }],
    ['NVTXC_END_', format.EndTag],
    ['NVTXC_REASON_', format.EndReason],
    ['NVTXC_CLOCK_', format.ClockKind],
    ['NVTXC_META_', format.MetaOp],
    ['NVTXC_OP_', format.Op],
    ['NVTXC_PEV_', format.PayloadEventKind],
    ['NVTXC_SAMPLE_', format.SampleKind, { NONE: 'NoValue' }],
    ['NVTXC_SYNC_', format.SyncOp],
    ['NVTXC_ATTR_', format.Attr],
    ['NVTXC_EXT_', format.ExtFlag],
    ['NVTXC_STRING_', format.StringFlag],
    ['NVTXC_MAX_', format.WriterLimit, { EXT_BLOB: 'MaxExtBlob' }],
    ['NVTXC_CUDA_DOMAIN_', format.CudaDomain],
    ['NVTXC_CUDA_API_', format.CudaApiFlag],
    ['NVTXC_CUDA_RES_', format.CudaResourceEvent],
    ['NVTXC_CUDA_STREAM_', format.CudaStreamFlag],
    ['NVTXC_CUDA_DROP_', format.CudaDropCause],
    ['NVTXC_CUDA_STATUS_', format.CudaStatus],
    ['NVTXC_CUDA_REC_', format.CudaRecord],
  ];
  for (const [prefix, object, aliases] of groups) {
    if (!name.startsWith(prefix)) continue;
    const member = name.slice(prefix.length);
    const key = aliases?.[member] ?? (prefix === 'NVTXC_MAX_' ? `Max${pascal(member)}` : pascal(member));
    return object[key];
  }
  return undefined;
}

describe('capture format constants', () => {
  const c = cConstants();

  it('reads every constant of format.h', () => {
    expect(c.size).toBeGreaterThan(100);
    expect(c.get('NVTXC_OP_EVENT_BATCH')).toBe(0x43);
    expect(c.get('NVTXC_OPEN_EVENTS_HEADER')).toBe(50);
  });

  it('has the same value for each of them in format.ts', () => {
    const differ: string[] = [];
    for (const [name, value] of c) {
      if (name === 'NVTXC_FORMAT_H') continue;
      const ts = tsValueOf(name);
      if (ts !== value) differ.push(`${name}: format.h ${JSON.stringify(value)}, format.ts ${JSON.stringify(ts)}`);
    }
    expect(differ).toEqual([]);
  });

  it('has no member in format.ts that format.h lacks (for what both sides write and read)', () => {
    const cValues = new Set([...c.keys()].map((name) => `${name}=${String(tsValueOf(name))}`));
    const missing: string[] = [];
    const check = (object: Record<string, number>, prefix: string, aliases: Record<string, string> = {}) => {
      const back = Object.fromEntries(Object.entries(aliases).map(([k, v]) => [v, k]));
      for (const [key, value] of Object.entries(object)) {
        const member = back[key] ?? key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
        if (!cValues.has(`${prefix}${member}=${value}`)) missing.push(`${prefix}${member}`);
      }
    };
    check(format.Chunk, 'NVTXC_CHUNK_');
    check(format.ProcessTag, 'NVTXC_PROC_', { CMDLINE: 'CommandLine' });
    check(format.EndTag, 'NVTXC_END_');
    check(format.MetaOp, 'NVTXC_META_');
    check(format.Op, 'NVTXC_OP_');
    check(format.PayloadEventKind, 'NVTXC_PEV_');
    check(format.SampleKind, 'NVTXC_SAMPLE_', { NONE: 'NoValue' });
    check(format.SyncOp, 'NVTXC_SYNC_');
    check(format.Attr, 'NVTXC_ATTR_');
    check(format.ExtFlag, 'NVTXC_EXT_');
    check(format.CudaDomain, 'NVTXC_CUDA_DOMAIN_');
    check(format.CudaApiFlag, 'NVTXC_CUDA_API_');
    check(format.CudaResourceEvent, 'NVTXC_CUDA_RES_');
    check(format.CudaStreamFlag, 'NVTXC_CUDA_STREAM_');
    check(format.CudaDropCause, 'NVTXC_CUDA_DROP_');
    check(format.CudaStatus, 'NVTXC_CUDA_STATUS_');
    check(format.CudaRecord, 'NVTXC_CUDA_REC_');
    expect(missing).toEqual([]);
  });
});
