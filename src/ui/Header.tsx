/** The slim bar at the top: product name, Open, loaded captures, load-report counts, settings, help. */
import { useEffect, useRef, useState } from 'react';
import { useViewer } from '../state/context.tsx';
import type { ThemeChoice } from '../state/viewerStore.ts';
import type { IssueCounts } from './loadReport.ts';
import { FilterMenu } from './search/FilterMenu.tsx';
import { SearchButton } from './search/SearchBar.tsx';
import { ExportMenu } from './share/ExportMenu.tsx';
import { middleEllipsis } from './middleEllipsis.ts';
import { TickRateSettings, usesTickRate } from './TickRateSettings.tsx';
import { usePopover } from './usePopover.ts';

export interface HeaderProps {
  onOpen(): void;
  counts: IssueCounts;
  /** False before anything was loaded: there is nothing to report yet. */
  showReport: boolean;
  reportOpen: boolean;
  onToggleReport(): void;
}

export function Header({ onOpen, counts, showReport, reportOpen, onToggleReport }: HeaderProps) {
  const setShowShortcuts = useViewer((s) => s.setShowShortcuts);
  const loaded = useViewer((s) => s.captures.length > 0);
  return (
    <header className="app-header">
      <div className="brand" title="nvtxview: NVTX timeline viewer">
        <span className="brand-mark" aria-hidden="true" />
        nvtxview
      </div>
      <button type="button" className="button primary" onClick={onOpen} title="Open capture files (Ctrl+O)">
        Open…
      </button>
      {/* The chips take the free room; without captures a spacer does. */}
      {loaded ? <CaptureChips /> : <div className="header-spacer" />}
      {loaded && <SearchButton />}
      {loaded && <FilterMenu />}
      {showReport && <ReportButton counts={counts} open={reportOpen} onToggle={onToggleReport} />}
      <ExportMenu />
      <TickRateButton />
      <ThemeSwitch />
      <button
        type="button"
        className="button icon"
        onClick={() => setShowShortcuts(true)}
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </header>
  );
}

/**
 * Tick rates concern only NVTXT files on the Qpc or Rdtsc time base (the file cannot say how fast
 * those clocks tick): the button is there while such a capture is loaded, nowhere else.
 */
function TickRateButton() {
  const needed = useViewer((s) => s.captures.some((c) => usesTickRate(c.model.capture.properties)));
  return needed ? <TickRateSettings /> : null;
}

/** Average width of a chip label character at the header's font size, for the label budget. */
const CHIP_CHAR_PX = 7.2;
/** A chip's padding, gap and close button. */
const CHIP_CHROME_PX = 46;

/**
 * The loaded captures as chips that shrink with the window: each label keeps the start and the
 * end of its name (captures of one run often differ only at the end), the full name in the
 * tooltip; with several captures a menu lists every one in full, each closable, at any width.
 */
function CaptureChips() {
  const captures = useViewer((s) => s.captures);
  const removeCapture = useViewer((s) => s.removeCapture);
  const listRef = useRef<HTMLUListElement>(null);
  const [widthPx, setWidthPx] = useState(0);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const observer = new ResizeObserver(() => setWidthPx(list.clientWidth));
    observer.observe(list);
    setWidthPx(list.clientWidth);
    return () => observer.disconnect();
  }, [captures.length > 0]);
  if (captures.length === 0) return null;
  const perChip = widthPx > 0 ? widthPx / captures.length - 6 : 260;
  const maxChars = Math.max(6, Math.floor((Math.min(perChip, 260) - CHIP_CHROME_PX) / CHIP_CHAR_PX));
  return (
    <>
      <ul className="capture-chips" aria-label="Loaded captures" ref={listRef}>
        {captures.map((c) => (
          <li key={c.id} className="chip" title={`${c.model.capture.displayName} · ${c.model.capture.fileName} · ${c.model.capture.format} · ${c.model.capture.clock}`} data-testid="capture-chip">
            <span className="chip-label">{middleEllipsis(c.model.capture.displayName, maxChars)}</span>
            <button
              type="button"
              className="chip-close"
              onClick={() => removeCapture(c.id)}
              aria-label={`Close ${c.model.capture.displayName}`}
              title="Close this capture"
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {captures.length > 1 && <CaptureMenu />}
    </>
  );
}

/** Every loaded capture in full, each with its file, format and a close button. */
function CaptureMenu() {
  const captures = useViewer((s) => s.captures);
  const removeCapture = useViewer((s) => s.removeCapture);
  const { open, setOpen, ref } = usePopover();
  return (
    <div className="popover-anchor capture-menu" ref={ref}>
      <button
        type="button"
        className="button icon"
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-label="All loaded captures"
        title={`All ${captures.length} loaded captures`}
        onClick={() => setOpen(!open)}
        data-testid="capture-menu"
      >
        {captures.length} ▾
      </button>
      {open && (
        <div className="popover capture-list" role="dialog" aria-label="Loaded captures">
          <ul>
            {captures.map((c) => (
              <li key={c.id}>
                <span className="capture-list-name">
                  <strong>{c.model.capture.displayName}</strong>
                  <span className="muted">
                    {c.model.capture.fileName} · {c.model.capture.format}
                  </span>
                </span>
                <button type="button" className="chip-close" onClick={() => removeCapture(c.id)} aria-label={`Close ${c.model.capture.displayName}`} title="Close this capture">
                  ×
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function ReportButton({ counts, open, onToggle }: { counts: IssueCounts; open: boolean; onToggle(): void }) {
  const parts: string[] = [];
  if (counts.error > 0) parts.push(plural(counts.error, 'error'));
  if (counts.warning > 0) parts.push(plural(counts.warning, 'warning'));
  if (counts.info > 0 && parts.length === 0) parts.push(plural(counts.info, 'note'));
  const label = parts.length > 0 ? parts.join(', ') : 'No problems';
  const tone = counts.error > 0 ? 'error' : counts.warning > 0 ? 'warning' : 'ok';
  return (
    <button
      type="button"
      className={`button report-button tone-${tone}`}
      aria-pressed={open}
      onClick={onToggle}
      title="Show or hide the load report"
      data-testid="report-button"
    >
      <span className="report-dot" aria-hidden="true" />
      {label}
    </button>
  );
}

function ThemeSwitch() {
  const theme = useViewer((s) => s.theme);
  const setTheme = useViewer((s) => s.setTheme);
  return (
    <label className="theme-switch" title="Color theme">
      <span className="visually-hidden">Theme</span>
      <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)} aria-label="Theme">
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
