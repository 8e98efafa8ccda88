/** Details of the selected range or mark (first part of the side panel). */
import { useMemo, type ReactNode } from 'react';
import { rangeDetails, type RangeDetails as RangeDetailsData } from '../analysis/rangeDetails.ts';
import { useViewer } from '../state/context.tsx';
import type { LoadedCapture } from '../state/viewerStore.ts';
import { formatPayload } from '../model/payload.ts';
import { categoryLabel, processLabel, threadLabel } from '../model/trackTree.ts';
import type { Model } from '../model/types.ts';
import { markName, trackOfMark } from '../model/query.ts';
import { isExtPayload } from '../payload/model.ts';
import { argbToRgb, rgbToCss, stylePaint } from '../timeline/colors.ts';
import { CudaStatistics } from './cuda/CudaStatistics.tsx';
import { gpuWorkFields } from './cuda/gpuWorkFields.ts';
import { JsonPayloadFields, useJsonObjectFields } from './JsonPayloadFields.tsx';
import { PayloadTree } from './PayloadTree.tsx';
import { useEffectiveTheme } from './useTheme.ts';
import { formatCount, formatPercent } from '../format/numbers.ts';
import { formatDuration, formatDurationShort, formatTimestamp } from '../format/time.ts';

/** One line for the collapsed selection section: the selected event's name and duration or time. */
export function SelectionSummary() {
  const text = useViewer((s) => {
    const sel = s.selection;
    const c = sel && s.captures.find((x) => x.id === sel.capture);
    if (!sel || !c) return null;
    const m = c.model;
    if (sel.kind === 'range') {
      if (sel.index < 0 || sel.index >= m.ranges.startNs.length) return null;
      return `${m.strings[m.styles.name[m.ranges.style[sel.index]]]} · ${formatDuration(m.ranges.endNs[sel.index] - m.ranges.startNs[sel.index])}`;
    }
    if (sel.index < 0 || sel.index >= m.marks.timeNs.length) return null;
    return `${markName(m, sel.index)} · ${formatTimestamp(m.marks.timeNs[sel.index])}`;
  });
  return text ? (
    <span className="section-summary" data-testid="selection-summary">
      {text}
    </span>
  ) : null;
}

export function SelectionDetails() {
  const selection = useViewer((s) => s.selection);
  const capture = useViewer((s) => (s.selection ? s.captures.find((c) => c.id === s.selection!.capture) : undefined));
  if (!selection || !capture) {
    return <p className="panel-hint">Click a range or mark on the timeline to see its details.</p>;
  }
  return selection.kind === 'range' ? (
    <RangeDetails capture={capture} index={selection.index} />
  ) : (
    <MarkDetails capture={capture} index={selection.index} />
  );
}

/** The color a style is drawn with: the capture's own, or the timeline's palette color for its name. */
function useStyleColor(model: Model, style: number): { css: string; given: boolean } {
  const dark = useEffectiveTheme() === 'dark';
  const rgb = argbToRgb(model.styles.color[style]);
  return rgb ? { css: rgbToCss(rgb), given: true } : { css: stylePaint(model, dark).fill[style], given: false };
}

function ColorValue({ model, style }: { model: Model; style: number }) {
  const { css, given } = useStyleColor(model, style);
  const argb = model.styles.color[style];
  return (
    <span className="color-value">
      <span className="swatch" style={{ background: css }} aria-hidden="true" />
      {given ? <code>{`0x${(argb >>> 0).toString(16).toUpperCase().padStart(8, '0')}`}</code> : <span className="muted">none given (palette {css})</span>}
    </span>
  );
}

function Swatch({ model, style }: { model: Model; style: number }) {
  const { css } = useStyleColor(model, style);
  return <span className="swatch" style={{ background: css }} aria-hidden="true" />;
}

/** A core payload as its value; extended payloads decoded against the capture's schemas, as a tree. */
function PayloadValue({ model, payload }: { model: Model; payload: number }) {
  const text = useMemo(() => (payload < 0 || isExtPayload(model, payload) ? null : formatPayload(model, payload)), [model, payload]);
  const fields = useJsonObjectFields(model, payload);
  if (payload < 0) return <span className="muted">none</span>;
  if (isExtPayload(model, payload)) return <PayloadTree model={model} payload={payload} />;
  if (fields) return <JsonPayloadFields fields={fields} />;
  return <code>{text}</code>;
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

function threadText(model: Model, thread: number): { thread: string; process: string } {
  if (thread < 0) return { thread: '–', process: '–' };
  return { thread: threadLabel(model, thread), process: processLabel(model, model.threads[thread].process) };
}

function RangeDetails({ capture, index }: { capture: LoadedCapture; index: number }) {
  const select = useViewer((s) => s.select);
  const model = capture.model;
  const details = useMemo(
    () => (index >= 0 && index < model.ranges.startNs.length ? rangeDetails(model, index) : null),
    [model, index],
  );
  const gpuFields = useMemo(() => (details ? gpuWorkFields(model, index) : undefined), [details, model, index]);
  if (!details) return <p className="panel-hint">The selected range no longer exists.</p>;
  const d = details;
  const packed = d.style === 'StartEnd' || d.style === 'GPU';
  const go = (i: number) => select({ kind: 'range', capture: capture.id, index: i });
  return (
    <div className="details" data-testid="range-details">
      <h3 className="details-title">
        <Swatch model={model} style={model.ranges.style[index]} />
        <span data-testid="detail-name">{d.label}</span>
        <span className="details-kind">{d.style}</span>
      </h3>
      <dl className="details-grid">
        <Row label="Category">{d.category ? d.category.label : <span className="muted">none</span>}</Row>
        <Row label="Thread">
          {d.thread ? d.thread.label : '–'}
          {d.endThread && <span className="muted"> → ended on {d.endThread.label}</span>}
        </Row>
        <Row label="Process">{d.process ? d.process.label : '–'}</Row>
        {model.tracks[d.track] && <Row label="Row">{model.tracks[d.track].label}</Row>}
        <Row label="Start" testId="detail-start">
          {formatTimestamp(d.startNs)}
        </Row>
        <Row label="End" testId="detail-end">
          {formatTimestamp(d.endNs)}
        </Row>
        <Row label="Duration" testId="detail-duration">
          <strong>{formatDuration(d.durationNs)}</strong>
        </Row>
        <Row label="Self time" testId="detail-self">
          {formatDuration(d.selfNs)}
        </Row>
        <Row label={packed ? 'Lane' : 'Depth'}>{d.depth}</Row>
        <Row label="Children">{formatCount(d.childCount)}</Row>
        <Row label="Parents">
          {d.parentChain.length === 0 ? (
            <span className="muted">top level</span>
          ) : (
            <ol className="parent-chain">
              {d.parentChain.map((p) => (
                <li key={p.range}>
                  <button type="button" className="link" onClick={() => go(p.range)} title="Select this range">
                    {p.label}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </Row>
        <Row label="Color">
          <ColorValue model={model} style={model.ranges.style[index]} />
        </Row>
        {gpuFields ? (
          gpuFields.map((f, k) => (
            <Row key={k} label={f.label} testId={`gpu-field-${f.label}`}>
              {f.value}
            </Row>
          ))
        ) : (
          <Row label="Payload">
            <PayloadValue model={model} payload={model.ranges.payload[index]} />
          </Row>
        )}
      </dl>
      <RangeNotes details={d} />
      {d.children.length > 0 && <ChildBreakdown details={d} />}
      <CudaStatistics capture={capture} index={index} />
    </div>
  );
}

function ChildBreakdown({ details }: { details: RangeDetailsData }) {
  const covered = details.children.reduce((sum, c) => sum + c.totalNs, 0);
  return (
    <table className="child-table" data-testid="child-breakdown">
      <caption>Direct children by name</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="num" title="Direct children of this name">
            Count
          </th>
          <th scope="col" className="num" title="Their time inside this range">
            Total
          </th>
          <th scope="col" className="num" title="Their time minus their own children">
            Self
          </th>
          <th scope="col" className="num" title="Total as a share of this range">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {details.children.map((c) => (
          <tr key={c.label}>
            <td className="name">{c.label}</td>
            <td className="num">{formatCount(c.count)}</td>
            <td className="num">{formatDurationShort(c.totalNs)}</td>
            <td className="num">{formatDurationShort(c.selfNs)}</td>
            <td className="num">{formatPercent(c.percent)}</td>
          </tr>
        ))}
        <tr className="child-self">
          <td className="name muted">(self)</td>
          <td />
          <td className="num">{formatDurationShort(details.selfNs)}</td>
          <td />
          <td className="num">{details.durationNs > 0 ? ((100 * Math.max(0, details.durationNs - covered)) / details.durationNs).toFixed(1) : '0.0'}%</td>
        </tr>
      </tbody>
    </table>
  );
}

function RangeNotes({ details }: { details: RangeDetailsData }) {
  const notes: string[] = [];
  if (details.unterminated) notes.push('Never closed: ends at the end of the capture.');
  if (details.crossThread) notes.push('Ended on another thread than it started on.');
  if (details.badNesting) notes.push('Overlaps the end of its parent.');
  if (notes.length === 0) return null;
  return (
    <ul className="details-notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

function MarkDetails({ capture, index }: { capture: LoadedCapture; index: number }) {
  const model = capture.model;
  const m = model.marks;
  if (index < 0 || index >= m.timeNs.length) return <p className="panel-hint">The selected mark no longer exists.</p>;
  const style = m.style[index];
  const { thread, process } = threadText(model, m.thread[index]);
  const track = model.tracks[trackOfMark(model, index)];
  const payload = m.payload[index];
  return (
    <div className="details" data-testid="mark-details">
      <h3 className="details-title">
        <Swatch model={model} style={style} />
        <span data-testid="detail-name">{markName(model, index)}</span>
        <span className="details-kind">mark</span>
      </h3>
      <dl className="details-grid">
        <Row label="Time" testId="detail-time">
          <strong>{formatTimestamp(m.timeNs[index])}</strong>
        </Row>
        <Row label="Category">{categoryLabel(model, model.styles.category[style])}</Row>
        <Row label="Thread">{thread}</Row>
        <Row label="Process">{process}</Row>
        {track && <Row label="Row">{track.label}</Row>}
        <Row label="Color">
          <ColorValue model={model} style={style} />
        </Row>
        <Row label="Payload">
          <PayloadValue model={model} payload={payload} />
        </Row>
      </dl>
    </div>
  );
}
