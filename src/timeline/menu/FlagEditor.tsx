/**
 * The note of a flag on the time axis, edited in place: opened by dropping a flag (double-click on
 * the axis) or clicking one. Enter or a click elsewhere keeps the note; Remove deletes the flag.
 */
import { useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react';
import { formatTimestamp } from '../../format/time.ts';
import type { TimeFlag } from '../../state/viewerStore.ts';

export interface FlagEditorProps {
  flag: TimeFlag;
  /** Viewport CSS px to open at. */
  x: number;
  y: number;
  onNote(note: string): void;
  onRemove(): void;
  onClose(): void;
}

const EDGE_CSS = 4;

export function FlagEditor({ flag, x, y, onNote, onRemove, onClose }: FlagEditorProps): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState(flag.note);
  const [place, setPlace] = useState({ left: x, top: y });
  const noteRef = useRef(note);
  noteRef.current = note;

  useLayoutEffect(() => {
    const { width, height } = ref.current!.getBoundingClientRect();
    setPlace({
      left: Math.max(EDGE_CSS, Math.min(x, window.innerWidth - width - EDGE_CSS)),
      top: Math.max(EDGE_CSS, Math.min(y + 8, window.innerHeight - height - EDGE_CSS)),
    });
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [x, y]);

  useEffect(() => {
    const outside = (e: Event) => {
      if (ref.current?.contains(e.target as Node)) return;
      onNote(noteRef.current);
      onClose();
    };
    window.addEventListener('pointerdown', outside, true);
    return () => window.removeEventListener('pointerdown', outside, true);
  }, [onNote, onClose]);

  return (
    <div
      ref={ref}
      className="tl-menu tl-flag-editor"
      role="dialog"
      aria-label={`Flag at ${formatTimestamp(flag.timeNs)}`}
      style={{ left: place.left, top: place.top }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onNote(note);
          onClose();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="tl-menu-title">Flag at {formatTimestamp(flag.timeNs)}</div>
      <div className="tl-flag-row">
        <input
          ref={inputRef}
          type="text"
          className="tl-track-filter"
          aria-label="Note"
          placeholder="Note (optional)"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        <button
          type="button"
          className="tl-hidden-rows"
          onClick={() => {
            onRemove();
            onClose();
          }}
        >
          Remove
        </button>
      </div>
    </div>
  );
}
