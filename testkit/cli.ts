/** Runs the nvtxview CLI in process, as tests and scripts call it: its exit status and what it wrote. */
import { main, type CliIO } from '../src/cli/main.ts';

export interface CliRun {
  status: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) } };
  const status = await main(argv, io);
  return { status, out, err };
}
