/**
 * The page's one statistics service, shared by every panel that computes on capture models (the
 * statistics panel, the Compare tab): one worker, one copy of each large model, one queue. The
 * worker ends when the last panel using it unmounts; the service starts a new one on demand.
 */
import { useEffect } from 'react';
import { useViewerStore } from '../../state/context.tsx';
import { exposeTestHook, workerMinEventsHook } from '../testHooks.ts';
import { StatsService } from './statsService.ts';
import { ViewMotion } from './viewMotion.ts';

let shared: StatsService | null = null;
let users = 0;
/** The mounted users' view trackers (all on the page's one store): the service waits on the latest. */
const motions: ViewMotion[] = [];

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
  const store = useViewerStore();
  useEffect(() => {
    users++;
    // Worker computations wait while the timeline's view moves (viewMotion.ts).
    const motion = new ViewMotion(store);
    motions.push(motion);
    service.setMotionGate(motion);
    return () => {
      motion.dispose();
      motions.splice(motions.indexOf(motion), 1);
      service.setMotionGate(motions.at(-1) ?? null);
      if (--users === 0) service.dispose();
    };
  }, [service, store]);
  return service;
}
