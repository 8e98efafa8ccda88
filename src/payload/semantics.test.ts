import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePayload, payloadStride } from './decode.ts';
import { counterTraits, semanticsFromStruct } from './semantics.ts';
import { CounterFlag, EntryFlag as F, EntryType as T, SchemaType, type PayloadRegistry } from './schema.ts';
import { w } from '../../testkit/payload/payloadBytes.ts';

const NVTX_INCLUDE = '/usr/local/cuda/include';

function gccWithHeaders(): boolean {
  if (!existsSync(join(NVTX_INCLUDE, 'nvtx3/nvToolsExtSemanticsCounters.h'))) return false;
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('semantics structs', () => {
  it('reads scope, time and counter structs laid out by hand, and keeps unknown ones', () => {
    const header = (size: number, id: number, version: number) => w().u32(size).u16(id).u16(version).u64(0);
    expect(semanticsFromStruct(header(24, 1, 1).u64(22).done())).toEqual({ kind: 'scope', scopeId: 22 });
    expect(semanticsFromStruct(header(24, 2, 1).u64(2 ** 33).done())).toEqual({ kind: 'time', timeDomainId: 2 ** 33 });
    const counter = header(72, 5, 2).u64(CounterFlag.Normalize).u64(0xdead).u64(3).u64(4).i64(1).i64(-5).i64(10).done();
    expect(semanticsFromStruct(counter, 'ms')).toEqual({
      kind: 'counter',
      flags: CounterFlag.Normalize,
      unit: 'ms',
      unitScaleNumerator: 3,
      unitScaleDenominator: 4,
      limitType: 1,
      min: -5,
      max: 10,
    });
    expect(semanticsFromStruct(header(40, 77, 3).pad(24).done())).toEqual({ kind: 'unknown', semanticId: 77, version: 3, structSize: 40 });
    // A struct cut short (an older, smaller version) keeps the defaults for what is missing.
    expect(semanticsFromStruct(header(24, 5, 1).u64(0).done())).toMatchObject({ kind: 'counter', unitScaleNumerator: 1, unitScaleDenominator: 1, limitType: 0 });
  });

  it.skipIf(!gccWithHeaders())('reads nvtxSemanticsCounter_t as gcc lays it out from the real header', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nvtxview-sem-'));
    try {
      const src = join(dir, 'sem.c');
      writeFileSync(
        src,
        `#define NVTX_NO_IMPL
#include <stdio.h>
#include <nvtx3/nvToolsExtSemanticsCounters.h>
int main(void) {
  nvtxSemanticsCounter_t c = {{sizeof(c), NVTX_SEMANTIC_ID_COUNTERS_V1, NVTX_COUNTER_SEMANTIC_VERSION, NULL},
    NVTX_COUNTER_FLAG_VALUETYPE_DELTA | NVTX_COUNTER_FLAG_INTERPOLATION_LINEAR | NVTX_COUNTER_FLAG_LIMITS,
    "bytes", 1, 1024, NVTX_COUNTER_LIMIT_F64, {.f64 = 0.5}, {.f64 = 99.5}};
  const unsigned char *p = (const unsigned char *)&c;
  for (size_t i = 0; i < sizeof c; i++) printf("%02x", p[i]);
  printf("\\n");
  return 0;
}
`,
      );
      const exe = join(dir, 'sem');
      execFileSync('gcc', ['-std=gnu11', `-I${NVTX_INCLUDE}`, '-o', exe, src]);
      const hex = execFileSync(exe, { encoding: 'utf8' }).trim();
      const bytes = Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));
      expect(bytes.length).toBe(72);
      expect(semanticsFromStruct(bytes, 'bytes')).toEqual({
        kind: 'counter',
        flags: CounterFlag.ValueTypeDelta | CounterFlag.InterpolationLinear | CounterFlag.LimitMin | CounterFlag.LimitMax,
        unit: 'bytes',
        unitScaleNumerator: 1,
        unitScaleDenominator: 1024,
        limitType: 3,
        min: 0.5,
        max: 99.5,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('counter traits', () => {
  it('spells out value type, interpolation and the limits the flags ask for', () => {
    const base = { kind: 'counter' as const, unitScaleNumerator: 1, unitScaleDenominator: 1, limitType: 3, min: 0, max: 100 };
    expect(counterTraits({ ...base, flags: CounterFlag.ValueTypeDelta | CounterFlag.InterpolationSinceLast | CounterFlag.LimitMax })).toEqual({
      valueType: 'delta',
      interpolation: 'sinceLast',
      normalize: false,
      max: 100,
    });
    expect(counterTraits({ ...base, flags: CounterFlag.ValueTypeDeltaSinceStart | CounterFlag.InterpolationLinear | CounterFlag.Normalize | CounterFlag.LimitMin })).toEqual({
      valueType: 'deltaSinceStart',
      interpolation: 'linear',
      normalize: true,
      min: 0,
    });
    expect(counterTraits({ ...base, flags: 0 })).toEqual({ normalize: false });
  });
});

describe('batch strides', () => {
  const S = 1 << 24;
  const reg: PayloadRegistry = {
    schemas: [
      { domain: 0, id: S, type: SchemaType.Static, flags: 0, entries: [{ flags: 0, type: T.Int64, name: 't', arrayOrUnionDetail: 0, offset: 0 }, { flags: 0, type: T.UInt8, name: 'v', arrayOrUnionDetail: 0, offset: 0 }] },
      { domain: 0, id: S + 1, type: SchemaType.Dynamic, flags: 0, entries: [{ flags: F.ArrayZeroTerminated, type: T.CString, name: 's', arrayOrUnionDetail: 0, offset: 0 }] },
    ],
    enums: [],
  };

  it('gives the stride of static layouts and predefined types, none for dynamic ones', () => {
    expect(payloadStride(reg, 0, S)).toBe(16);
    expect(payloadStride(reg, 0, T.Double)).toBe(8);
    expect(payloadStride(reg, 0, S + 1)).toBeUndefined();
    expect(payloadStride(reg, 0, S + 9)).toBeUndefined();
  });

  it('reports how far a dynamic payload reached, to walk a batch event by event', () => {
    const batch = w().utf8('ab').u8(0).utf8('cde').u8(0).done();
    const first = decodePayload(reg, S + 1, batch);
    expect(first.consumed).toBe(3);
    const second = decodePayload(reg, S + 1, batch.subarray(first.consumed));
    expect(second.fields[0].value).toBe('cde');
  });
});
