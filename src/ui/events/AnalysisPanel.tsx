/** The bottom panel's tabs: the events table, the push/pop hierarchy, instrumentation health, the load report and what each capture is. */
import { useMemo, type ReactNode } from 'react';
import { useViewer } from '../../state/context.tsx';
import { healthList } from '../health/health.ts';
import { CaptureInfoPanel } from '../capture/CaptureInfoPanel.tsx';
import { ComparePanel } from '../compare/ComparePanel.tsx';
import { HealthPanel } from '../health/HealthPanel.tsx';
import { HierarchyPanel } from '../hierarchy/HierarchyPanel.tsx';
import type { IssueCounts } from '../loadReport.ts';
import { BottomPanel, type TabSpec } from './BottomPanel.tsx';
import { EventsPanel } from './EventsPanel.tsx';

/** `contentReady` false: the tabs show, the open tab's content waits. */
export function AnalysisPanel({ report, reportCounts, contentReady = true }: { report: ReactNode; reportCounts: IssueCounts; contentReady?: boolean }) {
  const captures = useViewer((s) => s.captures);
  const health = useMemo(() => healthList(captures), [captures]);
  const problems = Object.values(health.counts).reduce((a, b) => a + b, 0);
  const tabs: TabSpec[] = [
    { id: 'events', label: 'Events', title: 'Every range and mark: sort, filter, select', render: () => <EventsPanel /> },
    { id: 'hierarchy', label: 'Hierarchy', title: 'Push/pop ranges of a thread as a tree (nsys pushpop_trace)', render: () => <HierarchyPanel /> },
    {
      id: 'health',
      label: 'Health',
      badge: problems,
      tone: 'warning',
      title: 'Instrumentation problems: unbalanced push/pop, ranges never ended or ended twice, ranges that overlap the end of their parent',
      render: () => <HealthPanel list={health} />,
    },
    {
      id: 'report',
      label: 'Load report',
      badge: reportCounts.error + reportCounts.warning,
      tone: reportCounts.error > 0 ? 'error' : 'warning',
      title: 'Every problem found while loading',
      render: () => report,
    },
    {
      id: 'capture',
      label: 'Capture',
      title: 'What each file is and holds: format, size, clock, counts, and what it records about itself (command line, tool versions, GPUs...)',
      render: () => <CaptureInfoPanel />,
    },
  ];
  // Comparing needs two captures: the tab appears with the second one, or when files were dropped
  // to compare (it then waits for them).
  const comparing = useViewer((s) => s.panel === 'compare' && s.loads.length > 0);
  if (captures.length >= 2 || comparing) {
    tabs.splice(3, 0, { id: 'compare', label: 'Compare', title: 'Compare two captures: what got slower, where, beyond the runs’ noise', render: () => <ComparePanel /> });
  }
  return <BottomPanel tabs={tabs} contentReady={contentReady} />;
}
