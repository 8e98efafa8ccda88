/**
 * The statistics section of the side panel: scope (whole capture or the selected span, all or some
 * tracks), then tabs for the range table (with a per-group detail), marks and counters.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SpanMode } from '../../analysis/scope.ts';
import { useViewer } from '../../state/context.tsx';
import { CounterTable } from './CounterTable.tsx';
import { MarkTable } from './MarkTable.tsx';
import { scopeKey, type PanelScope, type TrackSelection } from './panelScope.ts';
import { RangeTab } from './RangeTab.tsx';
import { ScopeBar } from './ScopeBar.tsx';
import { useStatsService } from './useStatsService.ts';
import { TrackPicker } from './TrackPicker.tsx';
import { hasCudaRows } from '../cuda/cudaTable.ts';
import './stats.css';

type Tab = 'ranges' | 'gpu' | 'api' | 'marks' | 'counters';

const TABS: { id: Tab; label: string; cuda?: boolean }[] = [
  { id: 'ranges', label: 'Ranges' },
  // GPU work and CUDA API calls in their own tables (nsys cuda_gpu_sum / cuda_api_sum), shown
  // when a capture has CUDA rows.
  { id: 'gpu', label: 'GPU work', cuda: true },
  { id: 'api', label: 'CUDA API', cuda: true },
  { id: 'marks', label: 'Marks' },
  { id: 'counters', label: 'Counters' },
];

export function StatsPanel() {
  const captures = useViewer((s) => s.captures);
  const span = useViewer((s) => s.span);
  const service = useStatsService();
  useEffect(() => service.sync(captures), [service, captures]);

  const [tab, setTab] = useState<Tab>('ranges');
  // Tabs mount when first shown and then stay (hidden), keeping their sort, grouping and detail.
  const [visited, setVisited] = useState<ReadonlySet<Tab>>(() => new Set(['ranges']));
  const show = (t: Tab) => {
    setTab(t);
    setVisited((v) => (v.has(t) ? v : new Set([...v, t])));
  };
  const [kind, setKind] = useState<PanelScope['kind']>(span ? 'span' : 'capture');
  const [mode, setMode] = useState<SpanMode>('clip');
  const [tracks, setTracks] = useState<TrackSelection>(null);

  // A new span is what the user wants to look at; without one, the whole capture.
  const hadSpan = useRef(span !== null);
  useEffect(() => {
    if (span && !hadSpan.current) setKind('span');
    if (!span) setKind('capture');
    hadSpan.current = span !== null;
  }, [span]);

  // Selected tracks of closed captures drop out.
  useEffect(() => {
    setTracks((sel) => {
      if (!sel) return sel;
      const ids = new Set(captures.map((c) => `${c.id}:`));
      const kept = [...sel].filter((k) => ids.has(k.slice(0, k.indexOf(':') + 1)));
      return kept.length === sel.size ? sel : new Set(kept);
    });
  }, [captures]);

  const filters = useViewer((s) => s.filters);
  const scope: PanelScope = useMemo(() => ({ kind, span, mode, tracks, filters }), [kind, span, mode, tracks, filters]);
  const key = scopeKey(scope);
  const gpuScope: PanelScope = useMemo(() => ({ ...scope, rangeKind: 'gpu' }), [scope]);
  const apiScope: PanelScope = useMemo(() => ({ ...scope, rangeKind: 'api' }), [scope]);
  const cuda = captures.some((c) => hasCudaRows(c.model));
  const tabs = TABS.filter((t) => !t.cuda || cuda);

  return (
    <div className="st-panel" data-testid="stats-panel">
      <div className="st-tabs" role="tablist" aria-label="Statistics">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`st-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`st-pane-${t.id}`}
            className="st-tab"
            onClick={() => show(t.id)}
          >
            {t.label}
          </button>
        ))}
        <div className="st-tabs-end">
          <TrackPicker selection={tracks} onChange={setTracks} />
        </div>
      </div>
      <ScopeBar scope={scope} onKind={setKind} onMode={setMode} />
      {tabs.filter((t) => visited.has(t.id)).map((t) => (
        <div key={t.id} className="st-pane" role="tabpanel" id={`st-pane-${t.id}`} aria-labelledby={`st-tab-${t.id}`} hidden={tab !== t.id}>
          {t.id === 'ranges' && <RangeTab service={service} scope={scope} scopeKey={key} />}
          {t.id === 'gpu' && <RangeTab service={service} scope={gpuScope} scopeKey={scopeKey(gpuScope)} subject="GPU work" />}
          {t.id === 'api' && <RangeTab service={service} scope={apiScope} scopeKey={scopeKey(apiScope)} subject="API call" />}
          {t.id === 'marks' && <MarkTable service={service} scope={scope} scopeKey={key} />}
          {t.id === 'counters' && <CounterTable service={service} scope={scope} scopeKey={key} />}
        </div>
      ))}
    </div>
  );
}
