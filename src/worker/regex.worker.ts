/**
 * Runs user regular expressions over names, off the page's thread: an expression that backtracks
 * for minutes (`^(a+)+$`) only stalls this worker, which the client ends after its time bound.
 */
import type { RegexReply, RegexRequest } from './regex.protocol.ts';
import { testNames } from './regexTest.ts';

self.onmessage = (e: MessageEvent<RegexRequest>) => {
  const { id, source, flags, names } = e.data;
  let reply: RegexReply;
  try {
    const matches = testNames(source, flags, names);
    reply = { id, matches };
    (self as unknown as Worker).postMessage(reply, [matches.buffer]);
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
    (self as unknown as Worker).postMessage(reply);
  }
};
