import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from './gunzip.ts';
import { LoadFailed, loadModel, memorySource } from './pipeline.ts';

const text = (n: number) => Array.from({ length: n }, (_, k) => `Marker, ${k + 1}, ns, 1, 2, 0, 0, "m${k}", 0`).join('\n') + '\n';

async function load(name: string, bytes: Uint8Array) {
  return loadModel(memorySource(name, bytes));
}

describe('gzip in the load pipeline', () => {
  it('checks CRC-32 as gzip computes it', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });

  it('keeps what decompressed from a cut file and says where it stopped, at every cut point', async () => {
    const gz = gzipSync(new TextEncoder().encode(text(3000)));
    let partial = 0;
    for (let k = 1; k <= 12; k++) {
      const cut = Math.floor((gz.length * k) / 13);
      let m;
      try {
        m = await load('cut.nvtxt.gz', gz.subarray(0, cut));
      } catch (e) {
        // Nothing decompressed yet (a cut in the header): refused, saying why.
        expect(e).toBeInstanceOf(LoadFailed);
        expect((e as Error).message).toMatch(/gzip/);
        continue;
      }
      partial++;
      expect(m.issues.some((i) => i.severity === 'error' && /gzip (stream ends early|data is damaged)/.test(i.message)), `cut at ${cut}`).toBe(true);
      expect(m.marks.timeNs.length).toBeGreaterThan(0);
      expect(m.marks.timeNs.length).toBeLessThan(3000);
    }
    expect(partial).toBeGreaterThanOrEqual(11);
    // A cut inside the 8-byte trailer: all data decompressed, the cut is still reported.
    const m = await load('trailer.nvtxt.gz', gz.subarray(0, gz.length - 3));
    expect(m.marks.timeNs.length).toBe(3000);
    expect(m.issues.map((i) => i.message)).toEqual([expect.stringMatching(/ends early: the file is cut at compressed byte/)]);
  });

  it('reports a bad checksum', async () => {
    const gz = gzipSync(new TextEncoder().encode(text(50)));
    gz[gz.length - 8] ^= 0xff;
    const m = await load('crc.nvtxt.gz', gz);
    expect(m.marks.timeNs.length).toBe(50);
    expect(m.issues.map((i) => i.message)).toEqual([expect.stringMatching(/gzip checksum does not match/)]);
  });

  it('refuses an empty file of any format the same way', async () => {
    for (const name of ['empty.nvtxt', 'empty.json', 'empty.nvtxc', 'empty.sqlite', 'empty.bin']) {
      await expect(load(name, new Uint8Array(0))).rejects.toThrow(`${name}: the file is empty`);
    }
    await expect(load('empty.nvtxt.gz', gzipSync(new Uint8Array(0)))).rejects.toThrow('empty.nvtxt.gz: the file is empty (after gzip decompression)');
  });
});
