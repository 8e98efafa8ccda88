/**
 * What the timeline's right-click menu offers for a range, a mark or a row of the track list (the
 * usual Nsight Systems and Perfetto actions), as entries that act on the viewer store.
 */
import type { Model } from '../../model/types.ts';
import { instanceOrdinal, nthInstance, rangeName } from '../../state/alignment.ts';
import { withHidden } from '../../analysis/eventFilters.ts';
import type { ViewerStore } from '../../state/viewerStore.ts';
import type { LayoutRow, TrackLayout } from '../trackLayout.ts';

export type MenuEntry = { label: string; run(): void; disabled?: boolean; hint?: string; keys?: string } | 'separator';

/** What was right-clicked. */
export type MenuTarget =
  | { kind: 'range' | 'mark'; row: LayoutRow; index: number }
  | { kind: 'row'; row: LayoutRow };

export interface MenuHost {
  store: ViewerStore;
  layout: TrackLayout;
  /** Shows [startNs, endNs] (shared axis) with some margin, inside the zoom limits. */
  zoomTo(startNs: number, endNs: number): void;
  copy(text: string): void;
}

export interface Menu {
  title: string;
  entries: MenuEntry[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function styleOf(model: Model, kind: 'range' | 'mark', index: number): number {
  return kind === 'range' ? model.ranges.style[index] : model.marks.style[index];
}

export function menuFor(target: MenuTarget, host: MenuHost): Menu {
  if (target.kind === 'row') return { title: target.row.label, entries: rowEntries(target.row, host) };
  const { row, index, kind } = target;
  const model = row.model;
  const style = styleOf(model, kind, index);
  const name = model.strings[model.styles.name[style]];
  const s = host.store.getState();
  const entries: MenuEntry[] = [];
  if (kind === 'range') {
    entries.push({
      label: 'Zoom to range',
      keys: 'Z',
      run: () => host.zoomTo(model.ranges.startNs[index] + row.offsetNs, model.ranges.endNs[index] + row.offsetNs),
    });
  }
  entries.push(
    { label: 'Copy name', run: () => host.copy(name) },
    {
      label: 'Show in events table',
      run: () => {
        host.store.getState().select({ kind, capture: row.captureId, index });
        host.store.getState().setPanel('events');
      },
    },
    {
      label: 'Find this name',
      hint: 'Search for exactly this name: other names fade, Enter steps through its instances',
      run: () => host.store.getState().setSearch({ text: `^${escapeRegExp(name)}$`, regex: true, matchCase: true }),
    },
    {
      label: 'Show only this name',
      hint: 'Filters: hide every other name everywhere, timeline, tables and statistics (Filters › Show everything undoes it)',
      run: () => {
        const domain = model.domains[model.styles.domain[style]]?.name ?? '';
        const st = host.store.getState();
        st.setFilters(withHidden(st.filters, [{ kind: 'only', domain, name }], true));
      },
    },
    {
      label: 'Hide this name',
      hint: 'Filters: hide every range and mark of this name (Filters shows it again)',
      run: () => {
        const domain = model.domains[model.styles.domain[style]]?.name ?? '';
        const st = host.store.getState();
        st.setFilters(withHidden(st.filters, [{ kind: 'name', domain, name }], true));
      },
    },
  );
  if (kind === 'range' && s.captures.length > 1) {
    const ordinal = instanceOrdinal(model, index);
    const others = s.captures.filter((c) => c.id !== row.captureId);
    const alignable = others.filter((c) => nthInstance(c.model, rangeName(model, index), ordinal) >= 0).length;
    entries.push('separator', {
      label: `Align other captures on “${name}” #${ordinal + 1}`,
      disabled: alignable === 0,
      hint:
        alignable === 0
          ? `No other capture has a ${ordinal + 1}. “${name}”`
          : `Shift ${alignable} of ${others.length} other captures so that their ${ordinal + 1}. “${name}” starts with this one`,
      run: () => host.store.getState().alignOnRange(row.captureId, index),
    });
  }
  entries.push('separator', ...rowEntries(row, host));
  return { title: name, entries };
}

/** The key of a row's parent ('' for a capture row). */
export function parentKeyOf(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** The keys of the rows shown beside `row` (same parent, or the pinned rows), in display order. */
function siblingKeys(row: LayoutRow, layout: TrackLayout): string[] {
  if (row.pinned) return layout.rows.filter((r) => r.pinned).map((r) => r.key);
  const parent = parentKeyOf(row.key);
  return layout.rows.filter((r) => !r.pinned && r.captureId === row.captureId && r.kind !== 'capture' && parentKeyOf(r.key) === parent).map((r) => r.key);
}

function rowEntries(row: LayoutRow, host: MenuHost): MenuEntry[] {
  const s = host.store.getState();
  const entries: MenuEntry[] = [];
  if (row.kind === 'capture') {
    const capture = s.captures.find((c) => c.id === row.captureId);
    if (capture) {
      entries.push({ label: 'Zoom to this capture', run: () => host.zoomTo(capture.offsetNs, capture.offsetNs + capture.model.durationNs) });
      if (s.captures.length > 1) {
        entries.push({
          label: 'Reset placement',
          disabled: !capture.alignedByUser,
          hint: 'Put the capture back where its clock places it',
          run: () => host.store.getState().resetCaptureOffset(capture.id),
        });
      }
    }
  } else {
    const siblings = siblingKeys(row, host.layout);
    const at = siblings.indexOf(row.key);
    const move = (by: number) => {
      const next = siblings.slice();
      [next[at], next[at + by]] = [next[at + by], next[at]];
      const st = host.store.getState();
      if (row.pinned) {
        // One change (one history entry): the band's new order, then pins not shown now (hidden, filtered out).
        st.setTrackArrangement({ ...st.tracks, pinned: [...next, ...st.tracks.pinned.filter((k) => !next.includes(k))] });
      } else {
        st.setRowOrder(parentKeyOf(row.key), next);
      }
    };
    if (row.kind === 'track') {
      entries.push({
        label: row.pinned ? 'Unpin' : 'Pin to top',
        hint: row.pinned ? 'Put the track back in its place' : 'Keep this track at the top while the list scrolls',
        run: () => host.store.getState().setRowPinned(row.key, !row.pinned),
      });
    }
    entries.push(
      { label: 'Move up', disabled: at <= 0, run: () => move(-1) },
      { label: 'Move down', disabled: at < 0 || at >= siblings.length - 1, run: () => move(1) },
      { label: row.kind === 'group' ? 'Hide group' : 'Hide track', run: () => host.store.getState().setRowHidden(row.key, true) },
    );
    if (row.track >= 0 && row.model.tracks[row.track].kind === 'counter' && s.tracks.heights[row.key] !== undefined) {
      entries.push({ label: 'Reset row height', run: () => host.store.getState().setRowHeight(row.key, null) });
    }
  }
  const hiddenCount = Object.keys(s.tracks.hidden).length;
  if (hiddenCount > 0) entries.push('separator', { label: `Show ${hiddenCount} hidden ${hiddenCount === 1 ? 'row' : 'rows'}`, run: () => host.store.getState().showHiddenRows() });
  return entries;
}
