/**
 * The fuzz harness's worker thread: checks the cases the harness sends, one at a time, and answers
 * with each result. A case that does not answer in time is ended with the whole thread.
 */
import { parentPort } from 'node:worker_threads';
import { checkCase } from './check.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

const port = parentPort!;
port.on('message', (request: WorkerRequest) => {
  void checkCase(request.name, request.bytes).then((result) => port.postMessage({ id: request.id, result } satisfies WorkerReply));
});
port.postMessage({ ready: true } satisfies WorkerReply);
