/** What the hover tooltip says about a range, mark or counter sample (pure), and writing it into its HTML element. */
import { formatValue } from '../format/numbers.ts';
import { formatDuration, formatTimestamp } from '../format/time.ts';
import { rowObjects, rowObjectText } from '../model/resources.ts';
import { formatPayload } from '../model/payload.ts';
import { runningTotalTrack, trackOfRange } from '../model/query.ts';
import { categoryLabel, domainLabel, processLabel, threadLabel } from '../model/trackTree.ts';
import { RangeFlag, type Model, type Track } from '../model/types.ts';
import { stylePaint } from './styleColors.ts';
import { partnerRows } from './correlation.ts';
import { counterValueAt } from './renderers/counterRow.ts';
import type { Hit } from './renderers/trackRenderer.ts';

export interface TooltipContent {
  /** Identity of what is described: the element is rebuilt only when it changes. */
  key: string;
  title: string;
  /** Fill color of the range or mark, shown as a swatch. */
  swatch: string | null;
  rows: [label: string, value: string][];
}

export function tooltipContent(hit: Hit, dark: boolean): TooltipContent {
  const { model, captureId } = hit.row;
  if (hit.kind === 'range') {
    const r = model.ranges;
    const i = hit.index;
    const style = r.style[i];
    const rows: [string, string][] = [
      ['Start', formatTimestamp(r.startNs[i])],
      ['Duration', formatDuration(r.endNs[i] - r.startNs[i])],
    ];
    if (r.flags[i] & RangeFlag.Unterminated) rows.push(['Unterminated', 'still open at the end of the capture']);
    if (r.flags[i] & RangeFlag.CrossThread) rows.push(['Ended', 'on another thread']);
    rows.push(...eventRows(model, style, r.thread[i], r.payload[i]));
    rows.push(...rowObjectRows(model, model.tracks[trackOfRange(model, i)], r.thread[i]));
    rows.push(...partnerRows(model, i));
    if (hit.merged !== undefined && hit.merged > 1) {
      // A merged block: say how many ranges share the pixel, then describe the nearest one.
      return {
        key: `r${captureId}:${i}:${hit.merged}`,
        title: `${hit.merged.toLocaleString('en-US')} ranges here`,
        swatch: stylePaint(model, dark).fill[style],
        rows: [['Zoom in', 'to tell them apart'], ['Nearest', nameOf(model, style)], ...rows],
      };
    }
    return { key: `r${captureId}:${i}`, title: nameOf(model, style), swatch: stylePaint(model, dark).fill[style], rows };
  }
  if (hit.kind === 'mark') {
    const m = model.marks;
    const i = hit.index;
    const style = m.style[i];
    return {
      key: `m${captureId}:${i}`,
      title: nameOf(model, style),
      swatch: stylePaint(model, dark).fill[style],
      rows: [['Time', formatTimestamp(m.timeNs[i])], ...eventRows(model, style, m.thread[i], m.payload[i])],
    };
  }
  const track = model.tracks[hit.row.track];
  return {
    key: `c${captureId}:${hit.sample}${track.counter?.interpolation === 'linear' ? `@${Math.round(hit.tNs)}` : ''}`,
    title: track.label,
    swatch: null,
    rows: counterRows(model, track, hit.sample, hit.tNs),
  };
}

/** Value and time of a counter sample, worded by how the value runs between samples and by what it measures. */
function counterRows(model: Model, track: Track, sample: number, tNs: number): [string, string][] {
  const info = track.counter;
  const times = model.counters.timeNs;
  const sampleTime = formatTimestamp(times[sample]);
  const value = counterValueAt(model, track, sample, tNs);
  const delta = info?.valueType === 'delta';
  const rows: [string, string][] = [[delta ? 'Change' : 'Value', delta ? signedValueText(value, track.unit) : sampleValueText(value, track.unit)]];
  switch (info?.interpolation) {
    case 'linear':
      rows.push(['At', formatTimestamp(tNs)], ['Nearest sample', `${sampleValueText(model.counters.value[sample], track.unit)} at ${sampleTime}`]);
      break;
    case 'sinceLast':
      // A change accrued over the time since the previous sample.
      if (delta && sample > track.counterBegin) rows.push(['Over', `${formatTimestamp(times[sample - 1])} – ${sampleTime}`]);
      else rows.push(['Until', sampleTime]);
      break;
    case 'point':
      rows.push(['Time', sampleTime]);
      break;
    default:
      rows.push(['Since', sampleTime]);
  }
  if (delta) {
    const total = runningTotalTrack(model, model.tracks.indexOf(track));
    if (total >= 0) rows.push(['Running total', sampleValueText(model.counters.value[model.tracks[total].counterBegin + (sample - track.counterBegin)], track.unit)]);
    rows.push(['Kind', 'change since the previous sample']);
  } else if (info?.derived === 'runningTotal') rows.push(['Kind', `running total of ${info.source ?? 'a counter of changes'}`]);
  else if (info?.valueType === 'deltaSinceStart') rows.push(['Kind', 'change since the start']);
  if (info?.min !== undefined || info?.max !== undefined) {
    rows.push(['Limits', `${info.min !== undefined ? formatValue(info.min, track.unit) : '–'} … ${info.max !== undefined ? formatValue(info.max, track.unit) : '–'}`]);
  }
  if (info?.description) rows.push(['About', info.description]);
  return rows;
}

/** A change, signed ("+3 B"), or "no value (unavailable)". */
function signedValueText(value: number, unit: string | undefined): string {
  return value > 0 ? `+${formatValue(value, unit)}` : sampleValueText(value, unit);
}

/** A counter value, or what a sample without one (NaN in the model) means. */
function sampleValueText(value: number, unit: string | undefined): string {
  return Number.isNaN(value) ? 'no value (unavailable)' : formatValue(value, unit);
}

function nameOf(model: Model, style: number): string {
  return model.strings[model.styles.name[style]] || '(unnamed)';
}

/**
 * The objects of the range's row with the names the program gave them (nsys GPU rows: device,
 * context, stream), and the row's process when the range has no thread to name it.
 */
function rowObjectRows(model: Model, track: Track | undefined, thread: number): [string, string][] {
  if (!track) return [];
  const rows: [string, string][] = rowObjects(model, track).map((o) => [capitalized(o.kind), rowObjectText(o)]);
  if (thread < 0 && track.process >= 0) rows.push(['Process', processLabel(model, track.process)]);
  return rows;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function eventRows(model: Model, style: number, thread: number, payload: number): [string, string][] {
  const rows: [string, string][] = [];
  const category = model.styles.category[style];
  if (category >= 0) rows.push(['Category', categoryLabel(model, category)]);
  const domain = model.styles.domain[style];
  if (domain > 0) rows.push(['Domain', domainLabel(model, domain)]);
  if (thread >= 0) {
    rows.push(['Thread', threadLabel(model, thread)]);
    rows.push(['Process', processLabel(model, model.threads[thread].process)]);
  }
  if (payload >= 0) rows.push(['Payload', formatPayload(model, payload)]);
  return rows;
}

/** Replaces the tooltip element's content (text only, never HTML from the capture). */
export function renderTooltip(el: HTMLElement, content: TooltipContent): void {
  el.replaceChildren();
  const title = document.createElement('div');
  title.className = 'tl-tip-title';
  if (content.swatch) {
    const swatch = document.createElement('span');
    swatch.className = 'tl-tip-swatch';
    swatch.style.background = content.swatch;
    title.append(swatch);
  }
  title.append(content.title);
  const table = document.createElement('dl');
  table.className = 'tl-tip-rows';
  for (const [label, value] of content.rows) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    table.append(dt, dd);
  }
  el.append(title, table);
}
