/**
 * A right-click menu at the pointer: a list of actions, kept inside the window, closed by Escape,
 * a click elsewhere, the wheel, resizing or choosing an item. Arrow keys move between items.
 */
import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { MenuEntry } from './menuItems.ts';

export interface ContextMenuProps {
  /** Viewport CSS px of the pointer. */
  x: number;
  y: number;
  title?: string;
  entries: readonly MenuEntry[];
  onClose(): void;
}

const EDGE_CSS = 4;

export function ContextMenu({ x, y, title, entries, onClose }: ContextMenuProps): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: x, top: y });

  useLayoutEffect(() => {
    const menu = ref.current!;
    const { width, height } = menu.getBoundingClientRect();
    setPlace({
      left: Math.max(EDGE_CSS, Math.min(x, window.innerWidth - width - EDGE_CSS)),
      top: Math.max(EDGE_CSS, Math.min(y, window.innerHeight - height - EDGE_CSS)),
    });
    menu.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
  }, [x, y]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const outside = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        // Closing the menu must not also clear the timeline selection.
        e.stopPropagation();
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener('pointerdown', outside, true);
    window.addEventListener('wheel', outside, true);
    window.addEventListener('resize', onClose);
    window.addEventListener('blur', onClose);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('wheel', outside, true);
      window.removeEventListener('resize', onClose);
      window.removeEventListener('blur', onClose);
      window.removeEventListener('keydown', onKey, true);
      if (previous && document.contains(previous)) previous.focus?.();
    };
  }, [onClose]);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const items = Array.from(ref.current!.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)'));
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : (at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
    items[next].focus();
  };

  return (
    <div
      ref={ref}
      className="tl-menu"
      role="menu"
      aria-label={title ?? 'Actions'}
      style={{ left: place.left, top: place.top }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      {title && (
        <div className="tl-menu-title" title={title}>
          {title}
        </div>
      )}
      {entries.map((entry, i) =>
        entry === 'separator' ? (
          <div key={`sep${i}`} className="tl-menu-sep" role="separator" />
        ) : (
          <button
            key={entry.label}
            type="button"
            role="menuitem"
            className="tl-menu-item"
            disabled={entry.disabled}
            title={entry.hint}
            onClick={() => {
              onClose();
              entry.run();
            }}
          >
            <span>{entry.label}</span>
            {entry.keys && <kbd>{entry.keys}</kbd>}
          </button>
        ),
      )}
    </div>
  );
}
