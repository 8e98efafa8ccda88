/**
 * The page layout: header, load progress, the timeline with the side panel at its right, the
 * collapsible load report at the bottom, and the page-wide drop target and dialogs.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useViewer } from '../state/context.tsx';
import { TIMELINE_SHORTCUTS } from '../timeline/shortcuts.ts';
import { Timeline } from '../timeline/Timeline.tsx';
import { EmptyState } from './EmptyState.tsx';
import { AnalysisPanel } from './events/AnalysisPanel.tsx';
import { Header } from './Header.tsx';
import { LoadReport } from './LoadReport.tsx';
import { LoadStrip } from './LoadStrip.tsx';
import type { LoadController } from './loadController.ts';
import { countBySeverity, reportRows } from './loadReport.ts';
import { ShareNotices } from './share/ShareNotices.tsx';
import { linkedFiles } from './share/linkedFiles.ts';
import { SearchBar } from './search/SearchBar.tsx';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';
import { SidePanel } from './SidePanel.tsx';
import { COMPARE_DROP, useFileDrop, type DropIntent } from './useFileDrop.ts';
import { useAfterFirstFrame } from './useAfterFirstFrame.ts';
import { useComparePrefetch } from './compare/useComparePrefetch.ts';
import { useThemeAttribute } from './useTheme.ts';

/** The bundled demo capture, relative to the page so that any sub-path works. */
export const DEMO_URL = './demo/demo.nvtxc';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/**
 * The files named by the view in the URL hash (a shared link). Read at each render: the hash sync
 * rewrites the hash without events (closing the last capture clears it); a hash edited by hand
 * re-renders through `hashchange`.
 */
function useLinkedFiles(): string[] {
  const [, setEdits] = useState(0);
  useEffect(() => {
    const update = () => setEdits((n) => n + 1);
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return linkedFiles(window.location.hash);
}

export function App({ controller }: { controller: LoadController }) {
  useThemeAttribute();
  useComparePrefetch();
  const inputRef = useRef<HTMLInputElement>(null);
  const captures = useViewer((s) => s.captures);
  const failed = useViewer((s) => s.failed);
  const loading = useViewer((s) => s.loads.length > 0);
  const setShowShortcuts = useViewer((s) => s.setShowShortcuts);

  // What the file picker's next choice is for: opening, or comparing the files picked.
  const pickIntent = useRef<DropIntent>('open');
  const open = useCallback(() => {
    pickIntent.current = 'open';
    inputRef.current?.click();
  }, []);
  const openToCompare = useCallback(() => {
    pickIntent.current = 'compare';
    inputRef.current?.click();
  }, []);
  const openFiles = useCallback(
    (files: File[], intent: DropIntent) => (intent === 'compare' ? controller.openToCompare(files) : controller.open(files)),
    [controller],
  );
  const openDemo = useCallback(() => controller.openUrl(DEMO_URL, 'demo.nvtxc'), [controller]);
  const dragging = useFileDrop(openFiles);
  const linkFiles = useLinkedFiles();

  const rows = useMemo(() => reportRows(captures, failed), [captures, failed]);
  const counts = useMemo(() => countBySeverity(rows), [rows]);
  // The open panel lives in the store so that the URL hash can keep it.
  const reportOpen = useViewer((s) => s.panel === 'report');
  const setPanel = useViewer((s) => s.setPanel);
  const setReportOpen = useCallback((show: boolean) => setPanel(show ? 'report' : null), [setPanel]);
  // New errors open the report, so a broken file is noticed; closing it is the user's choice.
  const seenErrors = useRef(0);
  useEffect(() => {
    if (counts.error > seenErrors.current) setReportOpen(true);
    seenErrors.current = counts.error;
  }, [counts.error, setReportOpen]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        open();
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !isTyping(e.target)) {
        e.preventDefault();
        setShowShortcuts(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, setShowShortcuts]);

  const empty = captures.length === 0;
  // A new capture's timeline is drawn first; the panels' contents (statistics, the open bottom tab)
  // mount after that frame, as a transition, instead of in the same long task.
  const panelsReady = useAfterFirstFrame(!empty);
  return (
    <div className="app">
      <Header
        onOpen={open}
        counts={counts}
        showReport={!empty || failed.length > 0}
        reportOpen={reportOpen}
        onToggleReport={() => setReportOpen(!reportOpen)}
      />
      <input
        ref={inputRef}
        type="file"
        multiple
        hidden
        data-testid="open-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          // Reset so that picking the same file again fires another change.
          e.currentTarget.value = '';
          if (files.length > 0) openFiles(files, pickIntent.current);
          pickIntent.current = 'open';
        }}
      />
      <LoadStrip />
      <ShareNotices />
      <main className="app-main">
        <div className="timeline-cell">
          {empty ? loading ? <div className="loading-note">Loading…</div> : <EmptyState onOpen={open} onOpenToCompare={openToCompare} onOpenDemo={openDemo} linkFiles={linkFiles} /> : <Timeline />}
          {!empty && <SearchBar />}
        </div>
        {!empty && <SidePanel contentReady={panelsReady} />}
      </main>
      {empty ? (
        reportOpen && <LoadReport rows={rows} counts={counts} onClose={() => setReportOpen(false)} />
      ) : (
        // With captures, the load report is a tab of the bottom panel (events, hierarchy, health).
        <AnalysisPanel
          report={<LoadReport rows={rows} counts={counts} onClose={() => setReportOpen(false)} />}
          reportCounts={counts}
          contentReady={panelsReady}
        />
      )}
      {dragging && (
        <div className="drop-overlay" data-testid="drop-overlay">
          <div className="drop-overlay-box">Drop to open</div>
          {/* Takes its own drops (the overlay lets the rest through to the page). */}
          <div className="drop-overlay-box drop-compare" {...COMPARE_DROP} data-testid="drop-compare-overlay">
            Drop here to compare
            <span className="drop-compare-note">
              {captures.length === 0 ? 'two files: A = the first, B = the second' : 'two files: A = the first, B = the second · one file: B, against the baseline A shown'}
            </span>
          </div>
        </div>
      )}
      <ShortcutsDialog timelineShortcuts={TIMELINE_SHORTCUTS} />
    </div>
  );
}
