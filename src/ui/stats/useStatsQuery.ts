/**
 * Runs one statistics request per capture through the `StatsService` whenever its inputs change,
 * and keeps the last complete answer on screen while a newer one is computed (`pending`).
 */
import { useEffect, useState } from 'react';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import type { StatsRequest, StatsResult } from './compute.ts';
import type { StatsService } from './statsService.ts';

export type ResultOf<K extends StatsResult['kind']> = Extract<StatsResult, { kind: K }>['result'];

export interface StatsQueryState<K extends StatsResult['kind']> {
  /** Per capture id, the latest complete answer (null before the first one). */
  results: Map<number, ResultOf<K>> | null;
  pending: boolean;
  error: string | null;
  /** Longest computation of the answer (ms) and where it ran. */
  ms: number;
  where: 'page' | 'worker' | null;
}

/**
 * The captures whose statistics are computed now, or null to wait. A capture still loading (a
 * partial model) is replaced within seconds: its statistics would describe the file's start only
 * and take CPU from the decoding, so it is left out until whole; the others are computed (a second
 * file loading does not hold up the first one's table). With only partial models, wait.
 */
export function capturesToCompute<C extends Pick<LoadedCapture, 'partial'>>(captures: readonly C[]): readonly C[] | null {
  const whole = captures.filter((c) => !c.partial);
  return whole.length === 0 && captures.length > 0 ? null : whole;
}

/**
 * `requestFor` must be stable for equal `inputsKey` (the effect re-runs on a new key, on new
 * captures and on a new service); captures it returns null for are left out.
 */
export function useStatsQuery<K extends StatsResult['kind']>(
  service: StatsService,
  captures: readonly LoadedCapture[],
  kind: K,
  requestFor: (capture: LoadedCapture) => StatsRequest | null,
  inputsKey: string,
  slot: string = kind,
): StatsQueryState<K> {
  const [state, setState] = useState<StatsQueryState<K>>({ results: null, pending: false, error: null, ms: 0, where: null });
  useEffect(() => {
    let live = true;
    setState((s) => (s.pending ? s : { ...s, pending: true }));
    const whole = capturesToCompute(captures);
    if (!whole) return;
    const jobs = whole.map((c) => {
      const request = requestFor(c);
      return request ? service.run(c, request, slot).then((answer) => ({ id: c.id, answer })) : null;
    });
    Promise.all(jobs.filter((j) => j !== null)).then(
      (answers) => {
        // A newer request replaced this one: its own effect will report.
        if (!live || answers.some((a) => a.answer === null)) return;
        const results = new Map<number, ResultOf<K>>();
        let ms = 0;
        let where: 'page' | 'worker' | null = null;
        for (const { id, answer } of answers) {
          if (!answer || answer.result.kind !== kind) continue;
          results.set(id, answer.result.result as unknown as ResultOf<K>);
          ms = Math.max(ms, answer.ms);
          if (where !== 'worker') where = answer.where;
        }
        setState({ results, pending: false, error: null, ms, where });
      },
      (e: unknown) => {
        if (live) setState((s) => ({ ...s, pending: false, error: e instanceof Error ? e.message : String(e) }));
      },
    );
    return () => {
      live = false;
    };
    // requestFor is a function of inputsKey by contract.
  }, [service, captures, inputsKey, kind, slot]);
  return state;
}
