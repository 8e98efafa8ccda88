/** Stand-in for the canvas timeline (src/timeline/Timeline.tsx) until it lands. */
import type { Shortcut } from './ShortcutsDialog.tsx';

export const TIMELINE_SHORTCUTS: readonly Shortcut[] = [];

export function TimelineSlot() {
  return <div className="timeline-placeholder">Timeline</div>;
}
