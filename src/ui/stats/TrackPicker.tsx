/**
 * Which tracks the statistics look at: a checkbox tree of every capture's track tree (a node
 * stands for every track below it), all tracks, or the tracks of the selected event's thread.
 */
import { useEffect, useRef } from 'react';
import { tracksUnder } from '../../model/trackTree.ts';
import type { TrackNode } from '../../model/types.ts';
import { useViewer } from '../../state/context.tsx';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { usePopover } from '../usePopover.ts';
import { selectedTrackCount, threadTracks, trackKey, type TrackSelection } from './panelScope.ts';

export function TrackPicker({ selection, onChange }: { selection: TrackSelection; onChange(next: TrackSelection): void }) {
  const captures = useViewer((s) => s.captures);
  const selected = useViewer((s) => s.selection);
  const { open, setOpen, ref } = usePopover();
  const count = selectedTrackCount(selection, captures);
  const total = captures.reduce((n, c) => n + c.model.tracks.length, 0);

  const selectedThread = (() => {
    if (!selected) return null;
    const c = captures.find((x) => x.id === selected.capture);
    if (!c) return null;
    const thread = selected.kind === 'range' ? c.model.ranges.thread[selected.index] : c.model.marks.thread[selected.index];
    return thread >= 0 ? { capture: c, thread } : null;
  })();

  const setKeys = (keys: Iterable<string>, on: boolean) => {
    const next = new Set(selection ?? captures.flatMap((c) => c.model.tracks.map((_, t) => trackKey(c.id, t))));
    for (const k of keys) {
      if (on) next.add(k);
      else next.delete(k);
    }
    onChange(next.size === total ? null : next);
  };

  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className={`button small${selection ? ' st-filtered' : ''}`}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        title="Choose the tracks the statistics look at"
        data-testid="track-picker"
      >
        {count === 'all' ? 'All tracks' : `${count} of ${total} tracks`} ▾
      </button>
      {open && (
        <div className="popover st-track-popover" role="dialog" aria-label="Tracks in the statistics">
          <div className="st-track-actions">
            <button type="button" className="button small" onClick={() => onChange(null)}>
              All
            </button>
            <button type="button" className="button small" onClick={() => onChange(new Set())}>
              None
            </button>
            {selectedThread && (
              <button
                type="button"
                className="button small"
                onClick={() => onChange(new Set(threadTracks(selectedThread.capture, selectedThread.thread)))}
                title="Only the tracks of the selected event's thread"
              >
                Selection’s thread
              </button>
            )}
          </div>
          <ul className="st-track-tree" role="tree">
            {captures.map((c) => (
              <CaptureNode key={c.id} capture={c} selection={selection} onSet={setKeys} multi={captures.length > 1} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function CaptureNode({
  capture,
  selection,
  onSet,
  multi,
}: {
  capture: LoadedCapture;
  selection: TrackSelection;
  onSet(keys: Iterable<string>, on: boolean): void;
  multi: boolean;
}) {
  const root: TrackNode = { label: capture.model.capture.displayName, track: -1, children: capture.model.trackTree };
  if (!multi) {
    return (
      <>
        {root.children.map((n, i) => (
          <TreeNode key={i} node={n} capture={capture} selection={selection} onSet={onSet} depth={0} />
        ))}
      </>
    );
  }
  return <TreeNode node={root} capture={capture} selection={selection} onSet={onSet} depth={0} />;
}

function TreeNode({
  node,
  capture,
  selection,
  onSet,
  depth,
}: {
  node: TrackNode;
  capture: LoadedCapture;
  selection: TrackSelection;
  onSet(keys: Iterable<string>, on: boolean): void;
  depth: number;
}) {
  const keys = tracksUnder(node).map((t) => trackKey(capture.id, t));
  const on = selection ? keys.filter((k) => selection.has(k)).length : keys.length;
  const box = useRef<HTMLInputElement>(null);
  const some = on > 0 && on < keys.length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  if (keys.length === 0) return null;
  return (
    <li role="treeitem" aria-checked={some ? 'mixed' : on > 0} aria-selected={false}>
      <label className="st-track" style={{ paddingLeft: depth * 14 }}>
        <input ref={box} type="checkbox" checked={on === keys.length} onChange={() => onSet(keys, on < keys.length)} />
        <span className="st-track-label">{node.label}</span>
        {node.detail && <span className="muted st-track-detail">{node.detail}</span>}
      </label>
      {node.children.length > 0 && (
        <ul role="group">
          {node.children.map((c, i) => (
            <TreeNode key={i} node={c} capture={capture} selection={selection} onSet={onSet} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}
