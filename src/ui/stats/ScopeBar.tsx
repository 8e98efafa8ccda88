/** The scope controls: whole capture or the selected span, and how ranges at its edges count. */
import type { SpanMode } from '../../analysis/scope.ts';
import { useViewer } from '../../state/context.tsx';
import { formatDuration, formatTimestamp } from '../../format/time.ts';
import type { PanelScope } from './panelScope.ts';

const MODES: { id: SpanMode; label: string; title: string }[] = [
  { id: 'clip', label: 'Clipped', title: 'Only the part of each range inside the span counts' },
  { id: 'overlap', label: 'Overlapping', title: 'Ranges overlapping the span count whole (like nsys)' },
  { id: 'contain', label: 'Contained', title: 'Only ranges entirely inside the span count' },
];

export function ScopeBar({
  scope,
  onKind,
  onMode,
}: {
  scope: PanelScope;
  onKind(kind: PanelScope['kind']): void;
  onMode(mode: SpanMode): void;
}) {
  const setSpan = useViewer((s) => s.setSpan);
  const span = scope.span;
  return (
    <div className="st-scope" data-testid="stats-scope">
      <div className="segmented" role="group" aria-label="Scope">
        <button type="button" aria-pressed={scope.kind === 'capture'} onClick={() => onKind('capture')} title="Everything in the loaded captures">
          Capture
        </button>
        <button
          type="button"
          aria-pressed={scope.kind === 'span'}
          disabled={!span}
          onClick={() => onKind('span')}
          title={span ? 'The selected time span' : 'Drag across the time axis to select a span'}
        >
          Span
        </button>
      </div>
      {scope.kind === 'span' && span && (
        <>
          <select value={scope.mode} onChange={(e) => onMode(e.target.value as SpanMode)} aria-label="Ranges at the span edges" title={MODES.find((m) => m.id === scope.mode)?.title}>
            {MODES.map((m) => (
              <option key={m.id} value={m.id} title={m.title}>
                {m.label}
              </option>
            ))}
          </select>
          <span className="st-span" title={`${formatTimestamp(span.startNs)} – ${formatTimestamp(span.endNs)}`} data-testid="span-length">
            {formatDuration(span.endNs - span.startNs)}
          </span>
          <button type="button" className="link st-clear" onClick={() => setSpan(null)} title="Clear the span (Escape on the timeline)">
            Clear
          </button>
        </>
      )}
    </div>
  );
}
