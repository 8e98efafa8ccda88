/**
 * The "CUDA statistics" part of the selection details, for captures with CUDA rows (nsys): for a
 * selected NVTX range, its API calls per domain, the GPU work they launched and its GPU projection
 * (NVTX guide 3.2.6, computed by src/analysis/cuda/statistics.ts); for a selected API call or GPU
 * operation, its correlated partners, each a link that selects it.
 */
import { Fragment, useMemo } from 'react';
import { rangeCudaStatistics, type GpuProjection, type StatValue } from '../../analysis/cuda/statistics.ts';
import { enclosingRanges } from '../../model/flows.ts';
import { correlatedRanges, rangeName, trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { describePartner } from '../../timeline/correlation.ts';
import { formatCount, formatPercent } from '../../format/numbers.ts';
import { formatDuration, formatDurationShort, formatTimestamp } from '../../format/time.ts';
import { cudaStatRows, hasCudaRows, isCudaActivity, type CudaStatRow } from './cudaTable.ts';
import './cuda.css';

/** Partners listed before "and N more". */
const LISTED_PARTNERS = 20;

export function CudaStatistics({ capture, index }: { capture: LoadedCapture; index: number }) {
  const model = capture.model;
  if (!hasCudaRows(model) || index < 0 || index >= model.ranges.startNs.length) return null;
  if (isCudaActivity(model, index)) return <CorrelatedPartners capture={capture} index={index} />;
  return <RangeStatistics capture={capture} index={index} />;
}

function amount(row: CudaStatRow, v: number): string {
  return row.unit === 'count' ? formatCount(v) : formatDurationShort(v);
}

function Cells({ row, value }: { row: CudaStatRow; value: StatValue }) {
  return (
    <>
      <td className="num" data-col="total" data-value={value.total}>
        {amount(row, value.total)}
      </td>
      <td className="num" data-col="totalPct" data-value={value.totalPct}>
        {formatPercent(value.totalPct)}
      </td>
      <td className="num" data-col="self" data-value={value.self}>
        {amount(row, value.self)}
      </td>
      <td className="num" data-col="selfPct" data-value={value.selfPct}>
        {formatPercent(value.selfPct)}
      </td>
    </>
  );
}

function RangeStatistics({ capture, index }: { capture: LoadedCapture; index: number }) {
  const stats = useMemo(() => rangeCudaStatistics(capture.model, index), [capture.model, index]);
  if (!stats) return null;
  const rows = cudaStatRows(stats);
  const groups = [...new Set(rows.map((r) => r.group))];
  return (
    <section className="cuda-stats" data-testid="cuda-stats" aria-label="CUDA statistics">
      <h3 className="cuda-title">CUDA statistics</h3>
      {stats.api.length === 0 && <p className="panel-hint">This thread made no CUDA API calls in the capture.</p>}
      <table className="cuda-table">
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col" className="num" title="Everything during the range">
              Total
            </th>
            <th scope="col" className="num">
              Total %
            </th>
            <th scope="col" className="num" title="Only calls outside the range's child ranges, and the GPU work they launched">
              Self
            </th>
            <th scope="col" className="num">
              Self %
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <Fragment key={group}>
              <tr className="cuda-group">
                <th scope="rowgroup" colSpan={5}>
                  {group}
                </th>
              </tr>
              {rows
                .filter((r) => r.group === group)
                .map((r) => (
                  <tr key={r.key} data-metric={r.key} title={r.reference}>
                    <th scope="row">{r.label}</th>
                    <Cells row={r} value={r.value} />
                  </tr>
                ))}
            </Fragment>
          ))}
        </tbody>
      </table>
      <Projection capture={capture} projection={stats.projection} />
    </section>
  );
}

function Projection({ capture, projection }: { capture: LoadedCapture; projection: GpuProjection | undefined }) {
  const setSpan = useViewer((s) => s.setSpan);
  if (!projection) return <p className="panel-hint">No GPU work was launched during this range.</p>;
  const showSpan = () =>
    setSpan({ startNs: projection.startNs + capture.offsetNs, endNs: projection.endNs + capture.offsetNs });
  return (
    <dl className="details-grid cuda-projection" data-testid="cuda-projection">
      <dt title="From the start of the first GPU operation launched in the range to the end of the last (nvtx_gpu_proj_sum)">
        GPU projection
      </dt>
      <dd data-value={projection.durationNs}>
        <strong>{formatDuration(projection.durationNs)}</strong>{' '}
        <button type="button" className="link" onClick={showSpan} title="Select the projection as the time span">
          select span
        </button>
      </dd>
      <dt>Projected</dt>
      <dd>
        {formatTimestamp(projection.startNs)} – {formatTimestamp(projection.endNs)}
      </dd>
      <dt>Launched</dt>
      <dd>
        {formatCount(projection.workCount)} GPU operation{projection.workCount === 1 ? '' : 's'} by {formatCount(projection.callCount)} API call
        {projection.callCount === 1 ? '' : 's'}
      </dd>
    </dl>
  );
}

function CorrelatedPartners({ capture, index }: { capture: LoadedCapture; index: number }) {
  const reveal = useViewer((s) => s.revealEvent);
  const partners = useMemo(() => correlatedRanges(capture.model, index), [capture.model, index]);
  if (partners.length === 0) return null;
  return (
    <section className="cuda-stats" data-testid="cuda-partners" aria-label="Correlated CUDA activity">
      <h3 className="cuda-title">{partnerTitle(capture.model, index)}</h3>
      <ul className="cuda-partners">
        {partners.slice(0, LISTED_PARTNERS).map((p) => (
          <li key={p}>
            <button type="button" className="link" onClick={() => reveal({ kind: 'range', capture: capture.id, index: p })} title="Select it and show it on the timeline">
              {describePartner(capture.model, p)}
            </button>
          </li>
        ))}
        {partners.length > LISTED_PARTNERS && <li className="muted">and {formatCount(partners.length - LISTED_PARTNERS)} more</li>}
      </ul>
      <CallStack capture={capture} index={index} />
    </section>
  );
}

/** The thread's ranges (CPU ops, annotations) around the launching call: where the work came from. */
function CallStack({ capture, index }: { capture: LoadedCapture; index: number }) {
  const select = useViewer((s) => s.select);
  const model = capture.model;
  const stack = useMemo(() => {
    const kind = model.tracks[trackOfRange(model, index)]?.kind;
    const call = kind === 'api' ? index : correlatedRanges(model, index).find((p) => model.tracks[trackOfRange(model, p)]?.kind === 'api');
    if (call === undefined || model.ranges.thread[call] < 0) return [];
    return enclosingRanges(model, model.ranges.thread[call], model.ranges.startNs[call]);
  }, [model, index]);
  if (stack.length === 0) return null;
  return (
    <div className="cuda-call-stack" data-testid="cuda-call-stack">
      <h4 className="cuda-title">Launched from</h4>
      <ol className="parent-chain">
        {stack.map((r) => (
          <li key={r}>
            <button type="button" className="link" onClick={() => select({ kind: 'range', capture: capture.id, index: r })} title="Select this range">
              {rangeName(model, r) || '(unnamed)'}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

function partnerTitle(model: Model, index: number): string {
  return model.tracks[trackOfRange(model, index)]?.kind === 'api' ? 'GPU work launched (outlined on the timeline)' : 'Launching call and related work';
}
