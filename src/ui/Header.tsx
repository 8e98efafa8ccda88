/** The slim bar at the top: product name, Open, loaded captures, load-report counts, settings, help. */
import { useViewer } from '../state/context.tsx';
import type { ThemeChoice } from '../state/viewerStore.ts';
import type { IssueCounts } from './loadReport.ts';
import { FilterMenu } from './search/FilterMenu.tsx';
import { SearchButton } from './search/SearchBar.tsx';
import { ExportMenu } from './share/ExportMenu.tsx';
import { TickRateSettings, usesTickRate } from './TickRateSettings.tsx';

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
      <CaptureChips />
      <div className="header-spacer" />
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

function CaptureChips() {
  const captures = useViewer((s) => s.captures);
  const removeCapture = useViewer((s) => s.removeCapture);
  if (captures.length === 0) return null;
  return (
    <ul className="capture-chips" aria-label="Loaded captures">
      {captures.map((c) => (
        <li key={c.id} className="chip" title={`${c.model.capture.fileName} · ${c.model.capture.format} · ${c.model.capture.clock}`} data-testid="capture-chip">
          <span className="chip-label">{c.model.capture.displayName}</span>
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
