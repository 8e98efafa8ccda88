/** The CLI says when a native capture has no END chunk (the process was killed), beside its statistics. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureWriter, StreamRecords } from '../../testkit/writers/nvtxcWriter.ts';
import { runCli } from '../../testkit/cli.ts';

describe('nvtxview stats on a killed capture', () => {
  it('warns that the END chunk is missing and still prints the statistics', async () => {
    const rec = new StreamRecords().thread(5, 'w').push(1_000, 'a').pop(2_000);
    const bytes = new CaptureWriter()
      .process({ pid: 7, t0: 1_000_000n, n0: 5_000_000_000n, tickRate: 1_000_000_000 })
      .events(1, [1_010_000n, 5_000_010_000n], rec.bytes())
      .bytes();
    const dir = mkdtempSync(join(tmpdir(), 'nvtxview-killed-'));
    try {
      const path = join(dir, 'killed.nvtxc');
      writeFileSync(path, bytes);
      const { status, out, err } = await runCli('stats', path);
      expect(status).toBe(0);
      expect(err).toContain('warning: capture has no END chunk: the process did not exit normally');
      expect(err).toMatch(/2 event records up to 0\.002 ms into the capture were kept/);
      expect(out).toMatch(/\ba\b/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
