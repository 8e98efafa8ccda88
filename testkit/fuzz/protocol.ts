/** Messages between the fuzz harness and its worker thread. */
import type { CaseResult } from './check.ts';

export interface WorkerRequest {
  id: number;
  name: string;
  bytes: Uint8Array;
}

export type WorkerReply = { ready: true } | { id: number; result: CaseResult };
