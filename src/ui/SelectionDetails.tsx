/** Details of the selected range or mark (first part of the side panel). */
import { useMemo, useState, type ReactNode } from 'react';
import { rangeDetails, type RangeDetails as RangeDetailsData } from '../analysis/rangeDetails.ts';
import { useViewer } from '../state/context.tsx';
import type { LoadedCapture } from '../state/viewerStore.ts';
import { formatPayload } from '../model/payload.ts';
import { rowObjects, unplacedResources } from '../model/resources.ts';
import { categoryLabel, processLabel, threadLabel } from '../model/trackTree.ts';
import { RangeFlag, type Model } from '../model/types.ts';
import { markName, trackOfMark, trackOfRange } from '../model/query.ts';
import { isExtPayload } from '../model/extPayloadReader.ts';
import { argbToRgb, rgbToCss, stylePaint } from '../timeline/styleColors.ts';
import { CudaStatistics } from './cuda/CudaStatistics.tsx';
import { gpuWorkFields } from './cuda/gpuWorkFields.ts';
import { JsonPayloadFields, useJsonObjectFields } from './JsonPayloadFields.tsx';
import { PayloadTree } from './PayloadTree.tsx';
import { shortFunctionName } from './shortName.ts';
import { useEffectiveTheme } from './useTheme.ts';
import { formatCount, formatPercent } from '../format/numbers.ts';
import { formatDuration, formatDurationShort, formatTimestamp } from '../format/time.ts';

function isGpuRange(model: Model, range: number): boolean {
  return model.tracks[trackOfRange(model, range)]?.kind === 'gpu';
}

/** One line for the collapsed selection section: the selected event's name and duration or time. */
export function SelectionSummary() {
  const text = useViewer((s) => {
    const sel = s.selection;
    const c = sel && s.captures.find((x) => x.id === sel.capture);
    if (!sel || !c) return null;
    const m = c.model;
    if (sel.kind === 'range') {
      if (sel.index < 0 || sel.index >= m.ranges.startNs.length) return null;
      const open = (m.ranges.flags[sel.index] & RangeFlag.Unterminated) !== 0;
      const full = m.strings[m.styles.name[m.ranges.style[sel.index]]];
      const name = isGpuRange(m, sel.index) ? shortFunctionName(full) : full;
      return `${name} · ${open ? '≥ ' : ''}${formatDuration(m.ranges.endNs[sel.index] - m.ranges.startNs[sel.index])}`;
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

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function threadText(model: Model, thread: number): { thread: string; process: string } {
  if (thread < 0) return { thread: '–', process: '–' };
  return { thread: threadLabel(model, thread), process: processLabel(model, model.threads[thread].process) };
}

/**
 * The range's name: a demangled C++ signature (`signature`: GPU kernels) shows its short name, the
 * full one a click away (and in the tooltip), so a template-heavy kernel does not fill the panel.
 * NVTX names are the program's own words and stay whole.
 */
function RangeName({ label, signature }: { label: string; signature: boolean }) {
  const [full, setFull] = useState(false);
  const short = signature ? shortFunctionName(label) : label;
  if (short === label) return <span data-testid="detail-name">{label}</span>;
  return (
    <span className="details-name">
      <span data-testid="detail-name" title={label}>
        {full ? <code className="details-full-name" data-testid="detail-full-name">{label}</code> : short}
      </span>
      <button type="button" className="link details-name-toggle" aria-expanded={full} onClick={() => setFull(!full)} data-testid="detail-name-toggle">
        {full ? 'short name' : 'full name'}
      </button>
    </span>
  );
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
  // Work on a GPU has no thread, stack, children or NVTX color: those fields would only read "–".
  const gpu = d.style === 'GPU';
  const go = (i: number) => select({ kind: 'range', capture: capture.id, index: i });
  return (
    <div className="details" data-testid="range-details">
      <h3 className="details-title">
        <Swatch model={model} style={model.ranges.style[index]} />
        <RangeName label={d.label} signature={gpu} />
        <span className="details-kind">{d.style}</span>
      </h3>
      {/* What is asked first (how long, where, with what data) comes first; the rest follows. */}
      <dl className="details-grid">
        <Row label="Duration" testId="detail-duration">
          {d.unterminated ? (
            <strong title="Still open when the capture stopped: at least this long">≥ {formatDuration(d.durationNs)}</strong>
          ) : (
            <strong>{formatDuration(d.durationNs)}</strong>
          )}
        </Row>
        {!gpu && (
          <Row label="Self time" testId="detail-self">
            {formatDuration(d.selfNs)}
          </Row>
        )}
        <Row label="Start" testId="detail-start">
          {formatTimestamp(d.startNs)}
        </Row>
        <Row label="End" testId="detail-end">
          {d.unterminated ? <span className="unended">never ended (capture stopped at {formatTimestamp(d.endNs)})</span> : formatTimestamp(d.endNs)}
        </Row>
        {!gpu && (
          <Row label="Thread" testId="detail-thread">
            {d.thread ? d.thread.label : '–'}
            {d.endThread && <span className="muted"> → ended on {d.endThread.label}</span>}
          </Row>
        )}
        <Row label="Process">{d.process ? d.process.label : '–'}</Row>
        {model.tracks[d.track] && <Row label="Row">{model.tracks[d.track].label}</Row>}
        {model.tracks[d.track] &&
          rowObjects(model, model.tracks[d.track]).map((o) => (
            <Row key={o.kind} label={capitalized(o.kind)} testId="detail-object">
              {o.handle}
              {o.name ? <> · <strong>{o.name}</strong></> : <span className="muted"> (unnamed)</span>}
            </Row>
          ))}
        {gpuFields ? (
          gpuFields.map((f, k) => (
            <Row key={k} label={f.label} testId={`gpu-field-${f.label}`}>
              {f.value}
            </Row>
          ))
        ) : (
          <Row label="Payload" testId="detail-payload">
            <PayloadValue model={model} payload={model.ranges.payload[index]} />
          </Row>
        )}
      </dl>
      <RangeNotes details={d} />
      <NamedObjects model={model} process={d.process?.index ?? -1} />
      {/* The CUDA answer (API and GPU time of this range) before the children list, which can be long. */}
      <CudaStatistics capture={capture} index={index} />
      {!gpu && d.children.length > 0 && <ChildBreakdown details={d} />}
      <dl className="details-grid details-more" data-testid="detail-more">
        {(!gpu || d.category) && <Row label="Category">{d.category ? d.category.label : <span className="muted">none</span>}</Row>}
        {!gpu && <Row label={packed ? 'Lane' : 'Depth'}>{d.depth}</Row>}
        {!gpu && <Row label="Children">{formatCount(d.childCount)}</Row>}
        {!gpu && (
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
        )}
        {!gpu && (
          <Row label="Color">
            <ColorValue model={model} style={model.ranges.style[index]} />
          </Row>
        )}
      </dl>
    </div>
  );
}

/** Child rows listed before "show all": the largest ones, so the fields below stay in view. */
const CHILD_ROWS_SHOWN = 6;

function ChildBreakdown({ details }: { details: RangeDetailsData }) {
  const [all, setAll] = useState(false);
  const covered = details.children.reduce((sum, c) => sum + c.totalNs, 0);
  const hidden = all ? 0 : Math.max(0, details.children.length - CHILD_ROWS_SHOWN);
  const listed = hidden > 0 ? details.children.slice(0, CHILD_ROWS_SHOWN) : details.children;
  return (
    <table className="child-table" data-testid="child-breakdown">
      <caption>Direct children by name</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="num" title="Direct children of this name that ended (open ones are counted apart)">
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
        {listed.map((c) => (
          <tr key={c.label}>
            <td className="name">{c.label}</td>
            <td className="num" title={c.unended > 0 ? `${c.count} ended; ${c.unended} still open at the end of the capture, in no figure` : undefined}>
              {formatCount(c.count)}
              {c.unended > 0 && <span className="unended"> +{formatCount(c.unended)} open</span>}
            </td>
            <td className="num">{formatDurationShort(c.totalNs)}</td>
            <td className="num">{formatDurationShort(c.selfNs)}</td>
            <td className="num">{formatPercent(c.percent)}</td>
          </tr>
        ))}
        {hidden > 0 && (
          <tr>
            <td colSpan={5}>
              <button type="button" className="link" onClick={() => setAll(true)} data-testid="children-show-all">
                {formatCount(hidden)} more {hidden === 1 ? 'name' : 'names'}…
              </button>
            </td>
          </tr>
        )}
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
  if (details.unterminated) notes.push('Never ended: still open when the capture stopped, so its duration is a lower bound and the statistics count it apart.');
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
      <NamedObjects model={model} process={m.thread[index] >= 0 ? model.threads[m.thread[index]].process : (track?.process ?? -1)} />
    </div>
  );
}

/** Objects shown at most before the rest are counted. */
const NAMED_OBJECTS_SHOWN = 50;

/** Names the event's process gave to objects that no row shows (CUDA and OpenCL objects, NVTX resources). */
function NamedObjects({ model, process }: { model: Model; process: number }) {
  const objects = useMemo(() => unplacedResources(model, process), [model, process]);
  if (objects.length === 0) return null;
  return (
    <details className="details-objects" data-testid="named-objects">
      <summary>Objects named by this process ({formatCount(objects.length)})</summary>
      <ul>
        {objects.slice(0, NAMED_OBJECTS_SHOWN).map((o) => (
          <li key={`${o.kind}:${o.handle}`}>
            {o.kind} <code>{o.handle}</code> · <strong>{o.name}</strong>
            {o.domain > 0 && <span className="muted"> ({model.domains[o.domain]?.name || 'default domain'})</span>}
          </li>
        ))}
        {objects.length > NAMED_OBJECTS_SHOWN && <li className="muted">and {formatCount(objects.length - NAMED_OBJECTS_SHOWN)} more</li>}
      </ul>
    </details>
  );
}
