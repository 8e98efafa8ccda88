/** The `?` dialog: every keyboard shortcut, the timeline's and the app's. */
import { useEffect, useRef } from 'react';
import { useViewer } from '../state/context.tsx';

export interface Shortcut {
  keys: string;
  action: string;
}

/** Keys the app shell handles itself (the timeline lists its own). */
export const APP_SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Ctrl+O', action: 'Open capture files' },
  { keys: '?', action: 'Show this list of shortcuts' },
  { keys: 'Esc', action: 'Close a dialog or popover' },
  { keys: '/ / Ctrl+F', action: 'Search range and mark names' },
  { keys: 'Enter / Shift+Enter', action: 'In the search box: select the next / previous match' },
  { keys: '↑ / ↓', action: 'Events table: select the previous / next event' },
  { keys: '→ / ←', action: 'Hierarchy: open a range (or go to its first child) / close it (or go to its parent)' },
  { keys: '* / /', action: 'Hierarchy: open / close the whole subtree' },
  { keys: 'Enter', action: 'Hierarchy: zoom the timeline to the focused range' },
];

export function ShortcutsDialog({ timelineShortcuts }: { timelineShortcuts: readonly Shortcut[] }) {
  const show = useViewer((s) => s.showShortcuts);
  const setShow = useViewer((s) => s.setShowShortcuts);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!show) return;
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        // Closing the dialog must not also clear the timeline selection.
        e.stopPropagation();
        setShow(false);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, [show, setShow]);
  if (!show) return null;
  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && setShow(false)}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
        <div className="modal-head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" className="button icon" onClick={() => setShow(false)} aria-label="Close">
            ×
          </button>
        </div>
        <div className="shortcut-groups">
          <ShortcutTable title="Timeline" shortcuts={timelineShortcuts} />
          <ShortcutTable title="App" shortcuts={APP_SHORTCUTS} />
        </div>
      </div>
    </div>
  );
}

function ShortcutTable({ title, shortcuts }: { title: string; shortcuts: readonly Shortcut[] }) {
  if (shortcuts.length === 0) return null;
  return (
    <table className="shortcut-table">
      <caption>{title}</caption>
      <tbody>
        {shortcuts.map((s) => (
          <tr key={s.keys + s.action}>
            <th scope="row">
              {s.keys.split(/\s+\/\s+/).map((k, i) => (
                <span key={k}>
                  {i > 0 && <span className="key-sep">/</span>}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </th>
            <td>{s.action}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
