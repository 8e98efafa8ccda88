/**
 * Once two or more captures are loaded, a comparison is one click away: each large capture's half
 * of it (its statistics and duration samples, `compareSide`) is computed in the statistics worker
 * ahead of time, with the grouping and filters the Compare tab would use. The model goes to the
 * worker in the page's idle slices (`copyColumns`) and the work yields to every panel's request,
 * so the page keeps drawing; the first comparison then only pairs the halves
 * (docs/performance.md, "Comparison of two captures").
 */
import { useEffect, useRef } from 'react';
import type { Model } from '../../model/types.ts';
import { useViewer } from '../../state/context.tsx';
import { useStatsService } from '../stats/useStatsService.ts';
import { compareOptions } from './compareOptions.ts';

export function useComparePrefetch(): void {
  const captures = useViewer((s) => s.captures);
  const filters = useViewer((s) => s.filters);
  const groupBy = useViewer((s) => s.compare?.groupBy ?? 'name');
  const service = useStatsService();
  // What was asked per model: moving a capture on the axis (a new captures array) asks nothing again.
  const asked = useRef(new WeakMap<Model, unknown[]>());
  // The worker's copies of closed or reloaded captures go, whichever panel is open.
  useEffect(() => service.sync(captures), [service, captures]);
  useEffect(() => {
    const whole = captures.filter((c) => !c.partial);
    if (whole.length < 2) return;
    for (const c of whole) {
      const inputs = [service, filters, groupBy];
      const before = asked.current.get(c.model);
      if (before && before.every((x, i) => x === inputs[i])) continue;
      asked.current.set(c.model, inputs);
      // A failure here is reported by the comparison itself, if the user asks for one.
      service.prepare(c, compareOptions(c.model, filters, groupBy)).catch(() => undefined);
    }
  }, [service, captures, filters, groupBy]);
}
