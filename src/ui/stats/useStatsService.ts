/**
 * The page's one statistics service, shared by every panel that computes on capture models (the
 * statistics panel, the Compare tab): one worker, one copy of each large model, one queue. The
 * worker ends when the last panel using it unmounts; the service starts a new one on demand.
 */
import { useEffect } from 'react';
import { exposeTestHook, workerMinEventsHook } from '../testHooks.ts';
import { StatsService } from './statsService.ts';

let shared: StatsService | null = null;
let users = 0;

function sharedService(): StatsService {
  if (!shared) {
    const service = (shared = new StatsService(undefined, workerMinEventsHook()));
    // For benchmarks and tests: whether the worker still has work (e.g. comparison halves prepared ahead).
    exposeTestHook('statsPending', () => (shared === service ? service.pendingJobs() : 0));
  }
  return shared;
}

export function useStatsService(): StatsService {
  const service = sharedService();
  useEffect(() => {
    users++;
    return () => {
      if (--users === 0) service.dispose();
    };
  }, [service]);
  return service;
}
