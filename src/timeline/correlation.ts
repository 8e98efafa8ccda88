/**
 * Correlated partners of a range on the timeline (nsys: a CUDA API call and the kernels, copies and
 * sets it launched, linked by `Model.correlation`): what the hover tooltip says about them, and
 * which boxes the overlay outlines when one side is selected.
 */
import { formatDuration } from '../format/time.ts';
import { correlatedRanges, rangeName, trackOfRange } from '../model/query.ts';
import { threadLabel } from '../model/trackTree.ts';
import type { Model } from '../model/types.ts';

/** Partners listed in a tooltip; the rest are counted. */
const TOOLTIP_PARTNERS = 3;
/** Partners outlined on the overlay (an API call launches a handful; a guard against odd captures). */
export const MAX_OUTLINED_PARTNERS = 256;

/** Tooltip label of a partner, by the kind of row it sits on. */
function partnerLabel(model: Model, partner: number): string {
  const kind = model.tracks[trackOfRange(model, partner)]?.kind;
  return kind === 'api' ? 'API call' : kind === 'gpu' ? 'GPU work' : 'Correlated';
}

/** One partner as text: name, where it ran, how long. */
export function describePartner(model: Model, partner: number): string {
  const track = model.tracks[trackOfRange(model, partner)];
  const r = model.ranges;
  const where =
    track.kind === 'gpu'
      ? [...track.path.slice(1), track.label].join(' › ')
      : r.thread[partner] >= 0
        ? threadLabel(model, r.thread[partner])
        : track.label;
  return `${rangeName(model, partner) || '(unnamed)'} · ${where} · ${formatDuration(r.endNs[partner] - r.startNs[partner])}`;
}

/** Tooltip rows naming the partners of `range` (none when it has none). */
export function partnerRows(model: Model, range: number): [label: string, value: string][] {
  if (!model.correlation) return [];
  const partners = correlatedRanges(model, range);
  if (partners.length === 0) return [];
  // The launching call first, then the work.
  const labelled = partners.map((p) => ({ p, label: partnerLabel(model, p) }));
  labelled.sort((a, b) => Number(b.label === 'API call') - Number(a.label === 'API call'));
  const rows: [string, string][] = labelled.slice(0, TOOLTIP_PARTNERS).map(({ p, label }) => [label, describePartner(model, p)]);
  const rest = labelled.slice(TOOLTIP_PARTNERS);
  if (rest.length > 0) {
    const label = rest.every((r) => r.label === rest[0].label) ? rest[0].label : 'Correlated';
    rows.push([label, `and ${rest.length} more`]);
  }
  return rows;
}

/** The ranges to outline with a selected range: its partners, at most `MAX_OUTLINED_PARTNERS`. */
export function outlinedPartners(model: Model, range: number): number[] {
  if (!model.correlation) return [];
  return correlatedRanges(model, range).slice(0, MAX_OUTLINED_PARTNERS);
}

/**
 * Arrows to draw with a selected range, as (from, to) range pairs: from a launching call to each
 * piece of GPU work it launched, whichever end is selected (selecting a kernel draws the arrow from
 * its call; the call's other work is outlined, not arrowed). Ranges on no GPU row are sources.
 */
export function partnerArrows(model: Model, range: number): [from: number, to: number][] {
  const partners = outlinedPartners(model, range);
  if (partners.length === 0) return [];
  const onGpu = (r: number) => model.tracks[trackOfRange(model, r)]?.kind === 'gpu';
  if (!onGpu(range)) return partners.filter(onGpu).map((p) => [range, p]);
  return partners.filter((p) => !onGpu(p)).map((p) => [p, range]);
}
